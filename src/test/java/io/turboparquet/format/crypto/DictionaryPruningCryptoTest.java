package io.turboparquet.format.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.RowGroupPruning;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.ParquetJava118;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dictionary pruning reads an encrypted chunk's dictionary page through the page readers'
 * decryption: on files parquet-java 1.18.1 writes with and without encryption (the same rows, a
 * dictionary-encoded category under a column key of its own, no bloom filters), an equality prunes
 * the same row groups of the encrypted files as of the plain twin, and the rows equal 1.18.1's
 * filtered read.
 */
class DictionaryPruningCryptoTest {
  private static final List<String> ALGORITHMS = List.of("plain", "AES_GCM_V1", "AES_GCM_CTR_V1");
  /** category IN (...): present in a few row groups, or (c99) in none. */
  private static final List<List<String>> FILTERS = List.of(List.of("c5"), List.of("c3", "c21"), List.of("c99"));

  @TempDir
  static Path dir;
  private static final List<Path> files = new ArrayList<>();
  private static ScanHarness harness;

  @BeforeAll
  static void write() throws Exception {
    // One child JVM writes them all, in turn (the encrypted ones from the plain one).
    List<String[]> commands = new ArrayList<>();
    for (String algorithm : ALGORITHMS) {
      Path file = dir.resolve(algorithm + ".parquet");
      commands.add(files.isEmpty() ? ParquetJava118.writeDictionaryArgs(file)
          : ParquetJava118.encryptDictionaryArgs(files.get(0), file, algorithm));
      files.add(file);
    }
    ParquetJava118.runAll(commands);
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  private static ScanContext context(Path file, String categoryKey, TrackingBufferSource buffers, ScanMetrics metrics) {
    ScanContext context = harness.context(ScanOptions.defaults(), buffers, metrics);
    return file.getFileName().toString().startsWith("plain") ? context
        : context.withDecryption(DecryptionKeys.of(FileDecryptionProperties.builder()
            .withFooterKey(ascii("0123456789012345")).withColumnKeys(Map.of(ColumnPath.get("category"),
                ColumnDecryptionProperties.builder("category").withKey(ascii(categoryKey)).build())).build()));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static String filter(List<String> values) {
    return "category IN ('" + String.join("', '", values) + "')";
  }

  /** Per row group of {@code file}: whether dictionary pruning rules it out for {@code values}. */
  private static List<Boolean> pruned(Path file, List<String> values) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanContext context = context(file, "1234567890123451", buffers, new ScanMetrics());
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
    Filter filter = Filter.bind(Predicate.parse(filter(values)), meta.schema());
    List<Boolean> out = new ArrayList<>();
    for (int rg = 0; rg < meta.rowGroups().size(); rg++) {
      out.add(RowGroupPruning.prunes(context, meta, path, rg, filter));
    }
    assertEquals(0, buffers.outstanding(), "buffers leaked");
    return out;
  }

  @Test
  void encryptedDictionariesPruneAsThePlainTwinsDo() throws Exception {
    for (List<String> values : FILTERS) {
      List<Boolean> plain = pruned(files.get(0), values);
      assertTrue(plain.size() >= 8, "row groups: " + plain.size());
      long kept = plain.stream().filter(p -> !p).count();
      boolean absent = values.equals(List.of("c99"));
      assertTrue(absent ? kept == 0 : kept > 0 && kept < plain.size() / 2,
          values + " keeps " + kept + " of " + plain.size() + " row groups");
      for (Path file : files.subList(1, files.size())) {
        assertEquals(plain, pruned(file, values), file + " " + values);
      }
    }
  }

  @Test
  void filteredRowsAreParquetJava118s() throws Exception {
    // parquet-java's answers for every filter from one child JVM: the encrypted file's, then the plain one's.
    List<String[]> commands = new ArrayList<>();
    for (List<String> values : FILTERS) {
      commands.add(ParquetJava118.idsWhereArgs(files.get(1), true, "category", values));
      commands.add(ParquetJava118.idsWhereArgs(files.get(0), false, "category", values));
    }
    List<List<String>> answers = ParquetJava118.runAll(commands);
    for (int f = 0; f < FILTERS.size(); f++) {
      List<String> values = FILTERS.get(f);
      List<Integer> expected = ParquetJava118.ids(answers.get(2 * f));
      assertEquals(ParquetJava118.ids(answers.get(2 * f + 1)), expected, values.toString());
      for (Path file : files) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        ScanMetrics metrics = new ScanMetrics();
        List<Integer> ids = ids(context(file, "1234567890123451", buffers, metrics), file, values);
        assertEquals(expected, ids, file + " " + values);
        long prunable = pruned(file, values).stream().filter(p -> p).count();
        assertTrue(prunable > 0, file + " " + values);
        assertEquals(prunable, metrics.rowGroupsPrunedByDictionary(), file + " " + values);
        assertEquals(0, buffers.outstanding(), "buffers leaked");
      }
    }
  }

  @Test
  void aWrongColumnKeyFailsPruningNamingTheColumn() {
    Path file = files.get(1);
    IOException e = assertThrows(IOException.class, () -> ids(context(file, "1234567890123459",
        new TrackingBufferSource(), new ScanMetrics()), file, List.of("c5")));
    assertTrue(e.getMessage().contains(file.getFileName().toString()) && e.getMessage().contains("column category")
        && !e.getMessage().contains("1234567890123459"), e.getMessage());
  }

  /**
   * The ids of the rows the filtered scan returns whose category is one of {@code values} (a scan
   * returns the rows of the pages it keeps, which may hold others).
   */
  private static List<Integer> ids(ScanContext context, Path file, List<String> values) throws IOException {
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    List<Integer> out = new ArrayList<>();
    try (ParquetFileScanner s = ParquetFileScanner.open(context, path, ParquetFileScanner.readMetadata(context, path),
        List.of("id", "category"), Predicate.parse(filter(values)))) {
      for (Batch b; (b = s.next()) != null; ) {
        ColumnBatch category = b.columns().get(1);
        for (int r = 0; r < b.rows(); r++) {
          int from = category.values().offsets().getIntLE(4 * r);
          int to = category.values().offsets().getIntLE(4 * r + 4);
          if (category.validity().getByte(r) != 0
              && values.contains(category.values().values().toString(from, to - from, StandardCharsets.UTF_8))) {
            out.add(b.columns().get(0).values().values().getIntLE(4 * r));
          }
        }
      }
    }
    return out;
  }
}
