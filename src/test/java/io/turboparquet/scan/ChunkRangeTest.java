package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.fuzz.SeedFiles;
import io.turboparquet.testing.FooterRewrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ColumnMetaData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column chunk's declared range bounds every read of it in every read mode: a footer whose chunk
 * claims 0 bytes, a byte too few, or more than the file holds gives one outcome whatever the read
 * mode (coalesced or not, sync or async, buffered or direct, prefetching or not), the same over
 * repeated runs. A chunk that runs past the file is refused where the footer is decoded; one that
 * is too short for its pages fails at the page that runs past its end.
 */
class ChunkRangeTest {
  @TempDir static Path dir;
  private static ScanHarness harness;
  private static byte[] intact;

  private static final List<ScanOptions> MODES = List.of(
      ScanOptions.builder().asyncPageReads(false).parallelDecode(false).coalescedReads(false).bufferedReads(false)
          .build(),
      ScanOptions.builder().asyncPageReads(false).parallelDecode(false).coalescedReads(false).bufferedReads(true)
          .bufferSize(7).batchSize(7).build(),
      ScanOptions.builder().asyncPageReads(false).parallelDecode(false).coalescedReads(true).build(),
      ScanOptions.builder().asyncPageReads(true).coalescedReads(false).bufferedReads(true).bufferSize(4096).build(),
      ScanOptions.builder().asyncPageReads(true).coalescedReads(true).prefetchRowGroups(true).decodeAhead(true)
          .batchSize(100).build(),
      ScanOptions.builder().asyncPageReads(true).coalescedReads(true).coalesceMaxSize(4096).coalesceGap(1 << 20)
          .build(),
      ScanOptions.builder().asyncPageReads(true).coalescedReads(true).memoryBudget(ScanOptions.MIN_BUFFER_SIZE)
          .build());

  @BeforeAll
  static void write() throws IOException {
    Path seeds = dir.resolve("seeds");
    SeedFiles.generate(seeds);
    intact = Files.readAllBytes(seeds.resolve("flat-plain-v1-uncompressed.parquet"));
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  /**
   * Column {@code id}'s chunk of the first row group claims {@code claimed} bytes (negative: that
   * many fewer than it holds). Before the fix the coalesced and the chunk-by-chunk reads disagreed.
   */
  @ParameterizedTest
  @ValueSource(longs = {0, -1, -100, Long.MAX_VALUE, 1L << 40, Integer.MAX_VALUE})
  void oneOutcomeInEveryMode(long claimed) throws IOException {
    Path file = dir.resolve("claims-" + claimed + ".parquet");
    Files.write(file, FooterRewrite.editFooter(intact, f -> {
      ColumnMetaData id = f.getRow_groups().get(0).getColumns().get(3).getMeta_data();
      id.setTotal_compressed_size(claimed < 0 ? id.getTotal_compressed_size() + claimed : claimed);
    }));
    List<String> outcomes = new ArrayList<>();
    for (ScanOptions options : MODES) {
      for (int run = 0; run < 3; run++) {
        outcomes.add(outcome(file, options.toBuilder().scanThreads(2).decodeThreads(2).build()));
      }
    }
    String first = outcomes.get(0);
    for (int i = 1; i < outcomes.size(); i++) {
      assertEquals(first, outcomes.get(i), "mode " + MODES.get(i / 3) + " run " + i % 3);
    }
    assertTrue(first.startsWith(ParquetCorruptionException.class.getName()), first);
    if (claimed > Integer.MAX_VALUE - 1) {
      assertTrue(first.contains("row group 0 column id: ColumnMetaData.total_compressed_size " + claimed), first);
    } else {
      assertTrue(first.contains("row group 0 column id"), first);
    }
  }

  private static String outcome(Path file, ScanOptions options) {
    try {
      return "rows " + harness.digest(file, null, options);
    } catch (IOException | RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
