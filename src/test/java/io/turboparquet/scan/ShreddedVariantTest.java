package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.ShreddedVariantCases;
import io.turboparquet.testing.ShreddedVariantCases.Case;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * parquet-testing's {@code shredded_variant/} suite through the scan core's {@link VariantColumn}:
 * every valid case's rows rebuild to its {@code .variant.bin} files byte for byte (null where the
 * case has no file), every error case is refused naming file, row group, column and what is wrong
 * ({@link ShreddedVariantCases}).
 */
class ShreddedVariantTest {

  /** Every row of the file's {@code var} column, read in batches of {@code batchSize} rows. */
  static List<byte[]> read(Path file, int batchSize) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    ScanOptions options = ScanOptions.builder().scanThreads(1).decodeThreads(1).batchSize(batchSize).build();
    List<byte[]> rows = new ArrayList<>();
    TrackingBufferSource buffers = new TrackingBufferSource();
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(path.getFileSystem(new Configuration()), options,
          buffers, pools.scanPool(), pools.decodePool(), new ScanMetrics());
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, List.of())) {
        List<VariantColumn> variants = VariantColumn.of(path.toString(), scanner.metadata().schema().root(),
            scanner.projection());
        assertEquals(1, variants.size(), "one VARIANT column");
        assertEquals("var", variants.get(0).path());
        for (Batch b; (b = scanner.next()) != null; ) {
          rows.addAll(Arrays.asList(variants.get(0).values(b)));
        }
      }
    }
    assertEquals(0, buffers.outstanding(), "buffers left");
    return rows;
  }

  @TestFactory
  Stream<DynamicTest> everyCase() {
    List<Case> cases = ShreddedVariantCases.all();
    assertEquals(137, cases.size(), "the suite's cases with a file");
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
  }

  private static void check(Case c) throws IOException {
    String name = c.file().getFileName().toString();
    if (c.errorPhrase() != null) {
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> read(c.file(), 1024));
      String m = e.getMessage();
      assertTrue(m.contains(name) && m.contains("row group 0") && m.contains("column var")
          && m.contains(c.errorPhrase()), m);
      return;
    }
    for (int batchSize : new int[] {1024, 1}) { // one batch, and a batch per row (levels carried across)
      List<byte[]> rows = read(c.file(), batchSize);
      assertEquals(c.rows().size(), rows.size(), "rows");
      for (int r = 0; r < rows.size(); r++) {
        assertArrayEquals(c.rows().get(r), rows.get(r), "row " + r + ", batches of " + batchSize);
      }
    }
  }
}
