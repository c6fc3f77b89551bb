package io.turboparquet.fuzz;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A failing case as files: the (minimized) mutated bytes, {@code NAME.parquet}, and beside them
 * {@code NAME.properties} with the seed file, strategy, case seed, read mode and outcome, so that a
 * regression test replays it and a human can regenerate it.
 */
public record Reproducer(String name, FuzzCase fuzzCase, ReadMode mode, CaseResult result, byte[] bytes) {

  /** Writes the two files into {@code dir}; returns the parquet file. */
  public Path write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(name + ".parquet");
    Files.write(file, bytes);
    Map<String, String> m = new TreeMap<>(mode.toProperties());
    m.put("file", name + ".parquet");
    m.put("seedFile", fuzzCase.seedFile());
    m.put("strategy", fuzzCase.strategy().name());
    m.put("caseSeed", Long.toHexString(fuzzCase.caseSeed()));
    m.put("outcome", result.outcome().name());
    m.put("detail", result.detail());
    // Properties.store would add a date line: written by hand, sorted, so a reproducer's files are stable.
    try (Writer w = Files.newBufferedWriter(dir.resolve(name + ".properties"), StandardCharsets.UTF_8)) {
      w.write("# turbo-parquet fuzz reproducer: bin/turbo-parquet fuzz --replay " + name + ".properties\n");
      for (Map.Entry<String, String> e : m.entrySet()) {
        w.write(e.getKey() + "=" + escape(e.getValue()) + "\n");
      }
    }
    return file;
  }

  /** A value as Properties.load reads it back: backslashes, line breaks and non-ASCII escaped. */
  private static String escape(String v) {
    StringBuilder b = new StringBuilder();
    for (char ch : v.toCharArray()) {
      switch (ch) {
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> b.append(ch < 0x20 || ch > 0x7e ? String.format("\\u%04x", (int) ch) : String.valueOf(ch));
      }
    }
    return b.toString();
  }

  /** Reads a reproducer from its properties file (the parquet file beside it). */
  public static Reproducer read(Path properties) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    Map<String, String> m = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    String file = m.get("file");
    FuzzCase c = new FuzzCase(m.get("seedFile"), Mutation.valueOf(m.get("strategy")),
        Long.parseUnsignedLong(m.get("caseSeed"), 16));
    return new Reproducer(file.substring(0, file.length() - ".parquet".length()), c, ReadMode.fromProperties(m),
        new CaseResult(Outcome.valueOf(m.get("outcome")), m.get("detail")),
        Files.readAllBytes(properties.resolveSibling(file)));
  }
}
