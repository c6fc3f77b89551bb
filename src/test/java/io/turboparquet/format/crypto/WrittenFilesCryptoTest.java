package io.turboparquet.format.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.Digester;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageReader;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.ParquetJava118;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import io.netty.buffer.ByteBufUtil;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files parquet-java 1.18.1 writes encrypted (GCM and GCM-CTR, encrypted and plaintext footers, AAD
 * prefixes stored, supplied or none; many pages and row groups, page indexes, bloom filters, a
 * dictionary, a list) read as 1.18.1 reads them, and filtered reads skip pages and prune row groups
 * by the decrypted page indexes and bloom filters.
 */
class WrittenFilesCryptoTest {
  /** algorithm, footer, AAD mode. */
  private static final List<String[]> VARIANTS = List.of(
      new String[] {"AES_GCM_V1", "encrypted-footer", "stored"},
      new String[] {"AES_GCM_CTR_V1", "encrypted-footer", "supplied"},
      new String[] {"AES_GCM_V1", "plaintext-footer", "none"},
      new String[] {"AES_GCM_CTR_V1", "plaintext-footer", "stored"});

  @TempDir
  static Path dir;
  private static final List<Path> files = new ArrayList<>();
  private static ScanHarness harness;

  @BeforeAll
  static void write() throws Exception {
    List<String[]> commands = new ArrayList<>();
    for (String[] v : VARIANTS) {
      Path file = dir.resolve(String.join("-", v) + ".parquet");
      commands.add(ParquetJava118.writeEncryptedArgs(file, v[0], v[1].equals("plaintext-footer"), v[2]));
      files.add(file);
    }
    ParquetJava118.runAll(commands); // one child JVM writes them all
    harness = new ScanHarness();
  }

  @AfterAll
  static void close() {
    harness.close();
  }

  private static String aad(Path file) {
    return file.getFileName().toString().contains("supplied") ? "turbo" : null;
  }

  static FileDecryptionProperties keys(Path file, String nameKey) {
    FileDecryptionProperties.Builder b = FileDecryptionProperties.builder()
        .withFooterKey(ascii("0123456789012345")).withColumnKeys(Map.of(
            ColumnPath.get("value"), ColumnDecryptionProperties.builder("value").withKey(ascii("1234567890123450"))
                .build(),
            ColumnPath.get("name"), ColumnDecryptionProperties.builder("name").withKey(ascii(nameKey)).build()));
    if (aad(file) != null) {
      b.withAADPrefix(ascii(aad(file)));
    }
    return b.build();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private ScanContext context(Path file, ScanOptions options, TrackingBufferSource buffers, ScanMetrics metrics) {
    return harness.context(options, buffers, metrics)
        .withDecryption(DecryptionKeys.of(keys(file, "1234567890123451")));
  }

  @Test
  void valuesAreParquetJava118s() throws Exception {
    List<String[]> commands = new ArrayList<>();
    for (Path file : files) {
      commands.add(ParquetJava118.digestEncryptedArgs(file, aad(file)));
    }
    List<List<String>> digests = ParquetJava118.runAll(commands); // one child JVM reads them all
    for (Path file : files) {
      List<String> expected = digests.get(files.indexOf(file));
      assertEquals(4, expected.size(), file.toString());
      for (ScanOptions options : EncryptedFilesCryptoTest.READ_MODES) {
        TrackingBufferSource buffers = new TrackingBufferSource();
        assertEquals(expected, Digester.digest(context(file, options, buffers, new ScanMetrics()),
            ScanHarness.hadoopPath(file), null), file + " " + options);
        assertEquals(0, buffers.outstanding(), "buffers leaked");
      }
    }
  }

  /** The ids a filtered scan returns, and its metrics. */
  private record Ids(List<Integer> ids, ScanMetrics metrics) {}

  private Ids ids(Path file, String filter) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    ScanContext context = context(file, ScanOptions.defaults(), buffers, metrics);
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    List<Integer> out = new ArrayList<>();
    try (ParquetFileScanner s = ParquetFileScanner.open(context, path, ParquetFileScanner.readMetadata(context, path),
        List.of("id", "name"), Predicate.parse(filter))) {
      for (Batch b; (b = s.next()) != null; ) {
        for (int r = 0; r < b.rows(); r++) {
          out.add(b.columns().get(0).values().values().getIntLE(4 * r));
        }
      }
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
    return new Ids(out, metrics);
  }

  @Test
  void pageIndexesAndBloomFiltersPrune() throws IOException {
    for (Path file : files) {
      for (int id : new int[] {0, 2_000, 17_776, 39_998}) {
        Ids hit = ids(file, "id = " + id);
        assertEquals(1, hit.ids().stream().filter(i -> i == id).count(), file + " id " + id);
        assertTrue(hit.metrics().pagesSkipped() > 0, file + ": pages skipped by the page index for id " + id);
        Ids miss = ids(file, "id = " + (id + 1)); // odd: inside the range, in no row
        assertEquals(List.of(), miss.ids(), file.toString());
        assertTrue(miss.metrics().rowGroupsPrunedByBloomFilter() > 0, file + ": row groups the bloom filter prunes");
      }
    }
  }

  @Test
  void aWrongColumnKeyIsRefusedNamingTheColumn() {
    for (Path file : files) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      IOException e = assertThrows(IOException.class, () -> Digester.digest(harness.context(ScanOptions.defaults(),
          buffers, new ScanMetrics()).withDecryption(DecryptionKeys.of(keys(file, "1234567890123459"))),
          ScanHarness.hadoopPath(file), null));
      assertTrue(e.getMessage().contains(file.getFileName().toString()) && e.getMessage().contains("column name")
          && !e.getMessage().contains("1234567890123459"), e.getMessage());
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
  }

  /**
   * A chunk's pages, each released before the next is read, decrypt into one buffer (a new one only
   * for a page larger than any before it), while a page still held keeps its bytes: it is never the
   * buffer reused.
   */
  @Test
  void pagesReleasedInTurnShareOnePlaintextBuffer() throws Exception {
    for (Path file : files) {
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanContext context = context(file, ScanOptions.defaults(), buffers, new ScanMetrics());
      org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
      FileMetadata meta = ParquetFileScanner.readMetadata(context, path);
      int leaf = meta.schema().columns().indexOf(meta.schema().column("id"));
      ColumnChunkMeta chunk = meta.rowGroups().get(0).column(leaf);
      int pages = 0;
      long allocations = 0;
      long expected = 0;
      try (FSDataInputStream in = context.fileSystem().open(path)) {
        // one read of the whole chunk: every allocation after it is a plaintext buffer
        ChunkInput input = ChunkInput.open(in, meta.file(), meta.fileLength(), chunk.startOffset(),
            chunk.totalCompressedSize(), true, (int) chunk.totalCompressedSize(), buffers);
        try (PageReader reader = new PageReader(input, new ChunkLocation(meta.file(), 0, chunk), 1 << 20, buffers)) {
          Page held = reader.next();
          byte[] heldBytes = ByteBufUtil.getBytes(held.body());
          long before = buffers.allocations();
          int largest = -1; // the held page's buffer cannot be reused: the next page gets a new one
          for (Page p; (p = reader.next()) != null; pages++) {
            int n = Math.max(1, p.body().readableBytes());
            if (n > largest) {
              expected++;
              largest = n;
            }
            p.release();
          }
          allocations = buffers.allocations() - before;
          assertTrue(Arrays.equals(heldBytes, ByteBufUtil.getBytes(held.body())), file + ": the held page changed");
          held.release();
        }
      }
      assertTrue(pages >= 4, file + ": " + pages + " pages after the first");
      assertTrue(expected < pages, file + ": the pages do not grow one after another");
      assertEquals(expected, allocations, file + ": plaintext buffers for " + pages + " pages");
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
  }
}
