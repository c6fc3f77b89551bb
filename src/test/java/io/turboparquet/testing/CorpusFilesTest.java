package io.turboparquet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** Which corpus files parquet-java (the oracle) can read here; the failures are pinned so a change shows up. */
class CorpusFilesTest {

  /**
   * Files parquet-java is allowed not to read in this build, with why. hadoop_lz4_compressed needs lz4-java (Hadoop's
   * Lz4Codec); without it on the test class path it fails with NoClassDefFoundError. All three bad_data files are refused.
   */
  static Map<String, String> expectedFailures() {
    Map<String, String> m = new TreeMap<>();
    if (!TestFileGenerator.hadoopLz4Available()) {
      m.put("hadoop_lz4_compressed.parquet", "Hadoop Lz4Codec needs lz4-java (net.jpountz.lz4)");
    }
    m.put("bad_data/PARQUET-1481.parquet", "unknown physical type in the schema");
    m.put("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", "negative num_values in a dictionary page header");
    m.put("bad_data/ARROW-GH-41317.parquet", "column chunks disagree; parquet-java: InvalidRecordException");
    return m;
  }

  @Test
  void corpusIsThere() {
    List<java.nio.file.Path> good = CorpusFiles.goodFiles();
    assertTrue(good.size() >= 30, "corpus has " + good.size() + " files");
    assertTrue(good.stream().anyMatch(p -> p.getFileName().toString().equals("alltypes_plain.parquet")));
    assertEquals(3, CorpusFiles.badFiles().size(), "bad_data: " + CorpusFiles.badFiles());
  }

  @Test
  void readabilityIsAsRecorded() {
    List<CorpusFiles.Readability> results = CorpusFiles.checkAll();
    Map<String, String> failures = new TreeMap<>();
    StringBuilder report = new StringBuilder();
    for (CorpusFiles.Readability r : results) {
      report.append(r.readable() ? "OK   " : "FAIL ").append(r.name())
          .append(r.readable() ? " (" + r.digest().size() + " columns)" : " : " + r.error()).append('\n');
      if (!r.readable()) {
        failures.put(r.name(), r.error());
      }
    }
    System.out.println("parquet-java readability of the corpus:\n" + report);
    assertEquals(expectedFailures().keySet(), failures.keySet(), report.toString());
    for (CorpusFiles.Readability r : results) {
      if (r.readable()) {
        assertFalse(r.digest().isEmpty(), r.name());
      }
    }
  }
}
