package io.turboparquet.fuzz;

import java.util.List;

/** A file the fuzzer mutates: its name (e.g. {@code parquet-testing/bad_data/x.parquet}), bytes and layout. */
public record SeedFile(String name, byte[] bytes, FileLayout layout) {

  public static SeedFile of(String name, byte[] bytes) {
    return new SeedFile(name, bytes, FileLayout.of(bytes));
  }

  /** The strategies that can mutate this file, in enum order. */
  public List<Mutation> strategies() {
    return java.util.Arrays.stream(Mutation.values()).filter(m -> m.appliesTo(layout)).toList();
  }
}
