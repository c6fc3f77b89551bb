package io.turboparquet.format;

/** Field repetition, by Thrift id. */
public enum Repetition {
  REQUIRED, OPTIONAL, REPEATED;

  public static Repetition fromThriftId(int id) {
    return switch (id) {
      case 0 -> REQUIRED;
      case 1 -> OPTIONAL;
      case 2 -> REPEATED;
      default -> throw new IllegalArgumentException("unknown repetition id " + id);
    };
  }
}
