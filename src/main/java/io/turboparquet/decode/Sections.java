package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/** Argument and bounds checks shared by the decoders, so each message names the encoding and type. */
final class Sections {
  private Sections() {}

  /** Checks that {@code [offset, offset + length)} lies inside {@code page} and the count is sane. */
  static void checkInit(String name, ByteBuf page, int offset, int length, int valueCount) {
    if (offset < 0 || length < 0 || (long) offset + length > page.capacity()) {
      throw new IndexOutOfBoundsException(name + " section [" + offset + ", +" + length
          + ") outside buffer of " + page.capacity() + " bytes");
    }
    if (valueCount < 0) {
      throw new DecodeException(name + " section with a negative value count " + valueCount);
    }
  }

  /** Checks a read or skip of {@code n} values when {@code left} remain in the section. */
  static void checkCount(String name, int n, int left) {
    if (n < 0) {
      throw new IllegalArgumentException(name + ": negative value count " + n);
    }
    if (n > left) {
      throw new DecodeException(name + " section: " + n + " values requested but only " + left + " left");
    }
  }
}
