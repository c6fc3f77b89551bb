package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.FooterReader;
import io.turboparquet.testing.TestFileGenerator;
import io.turboparquet.testing.WriterFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The footer cache on its own: one decode per file version, concurrency, the bound, failures. */
class FooterCacheTest {
  @TempDir
  Path dir;

  private final FileSystem fs = local();

  @Test
  void withImpersonationACachedFooterNeedsReadAccess() throws IOException {
    FooterCache cache = new FooterCache(64 << 20, true);
    Path file = lineitem("secret", 1_000);
    cache.get(fs, hadoop(file)); // cached by a user who may read it
    FileSystem denied = new org.apache.hadoop.fs.FilterFileSystem(fs) {
      @Override
      public void access(org.apache.hadoop.fs.Path path, org.apache.hadoop.fs.permission.FsAction mode)
          throws org.apache.hadoop.security.AccessControlException {
        throw new org.apache.hadoop.security.AccessControlException("no " + mode + " on " + path);
      }
    };
    assertThrows(org.apache.hadoop.security.AccessControlException.class, () -> cache.get(denied, hadoop(file)));
    assertEquals(1, cache.decodes());
    // Without impersonation every query reads as the drillbit's user: no check.
    FooterCache shared = new FooterCache(64 << 20, false);
    assertEquals(1_000, shared.get(denied, hadoop(file)).numRows());
  }

  @Test
  void decodesEachVersionOfAFileOnce() throws IOException {
    FooterCache cache = new FooterCache(64 << 20);
    Path file = lineitem("a", 3_000);
    FileMetadata first = cache.get(fs, hadoop(file));
    assertSame(first, cache.get(fs, hadoop(file)));
    assertEquals(1, cache.decodes());
    assertTrue(first.rowGroups().get(0).column(0).statistics() != null, "statistics are decoded for planning");

    // Rewritten: another length and modification time, so another key.
    Path rewritten = lineitem("b", 5_000);
    Files.move(rewritten, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 10_000));
    FileMetadata second = cache.get(fs, hadoop(file));
    assertNotSame(first, second);
    assertEquals(2, cache.decodes());
    assertEquals(5_000, second.numRows());
    assertEquals(3_000, first.numRows());
    assertEquals(1, cache.size(), "the older version's footer is dropped");
    assertSame(second, cache.get(fs, hadoop(file)));

    // Same length, only the modification time changes: decoded again too.
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 10_000));
    cache.get(fs, hadoop(file));
    assertEquals(3, cache.decodes());
    assertEquals(1, cache.size());
    // Other files keep theirs.
    cache.get(fs, hadoop(lineitem("c", 1_000)));
    assertEquals(2, cache.size());
  }

  @Test
  void derivesOncePerFileVersionAndSettings() throws IOException {
    FooterCache cache = new FooterCache(64 << 20);
    Path file = lineitem("derived", 2_000);
    java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
    FooterCache.Deriver<String> rows = footer -> footer.numRows() + "/" + made.incrementAndGet();
    assertEquals("2000/1", cache.derived(fs, status(file), fs.getConf(), "settings A", rows));
    assertEquals("2000/1", cache.derived(fs, status(file), fs.getConf(), "settings A", rows));
    // Other settings derive again and replace it; equal settings (not the same object) reuse it.
    assertEquals("2000/2", cache.derived(fs, status(file), fs.getConf(), "settings B", rows));
    assertEquals("2000/2", cache.derived(fs, status(file), fs.getConf(), new String("settings B"), rows));
    assertEquals(1, cache.decodes());
    // A new version of the file: a new footer and a new derivation.
    Files.move(lineitem("derived2", 4_000), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 10_000));
    assertEquals("4000/3", cache.derived(fs, status(file), fs.getConf(), "settings B", rows));
    assertEquals(2, cache.decodes());
    // A failed derivation keeps nothing and leaves the last one.
    assertThrows(IOException.class, () -> cache.derived(fs, status(file), fs.getConf(), "settings C", footer -> {
      throw new IOException("no");
    }));
    assertEquals("4000/3", cache.derived(fs, status(file), fs.getConf(), "settings B", rows));
  }

  private org.apache.hadoop.fs.FileStatus status(Path file) throws IOException {
    return fs.getFileStatus(hadoop(file));
  }

  @Test
  void concurrentReadersOfOneFileShareOneDecode() throws Exception {
    FooterCache cache = new FooterCache(64 << 20);
    org.apache.hadoop.fs.Path file = hadoop(lineitem("a", 3_000));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<FileMetadata>> footers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        footers.add(pool.submit(() -> {
          start.await();
          return cache.get(fs, file);
        }));
      }
      start.countDown();
      for (Future<FileMetadata> f : footers) {
        assertSame(footers.get(0).get(), f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, cache.decodes());
  }

  @Test
  void theBoundEvictsTheLeastRecentlyUsed() throws IOException {
    org.apache.hadoop.fs.Path a = hadoop(lineitem("a", 3_000));
    org.apache.hadoop.fs.Path b = hadoop(lineitem("b", 3_000));
    long one = FooterCache.weight(new FooterCache(64 << 20).get(fs, a));
    assertTrue(one > 10_000, "estimate " + one);
    FooterCache cache = new FooterCache(one * 3 / 2); // room for one footer
    cache.get(fs, a);
    cache.get(fs, b);
    assertEquals(1, cache.size());
    cache.get(fs, b);
    assertEquals(2, cache.decodes());
    cache.get(fs, a); // evicted by b
    assertEquals(3, cache.decodes());

    FooterCache off = new FooterCache(0);
    off.get(fs, a);
    off.get(fs, a);
    assertEquals(2, off.decodes());
    assertEquals(0, off.size());
  }

  @Test
  void theBoundIsASizeOrAnEighthOfTheHeap() {
    assertEquals(64L << 20, FooterCache.maxBytes(com.typesafe.config.ConfigFactory.parseString(
        FooterCache.MAX_BYTES + ": 64M")));
    assertEquals(0, FooterCache.maxBytes(com.typesafe.config.ConfigFactory.parseString(FooterCache.MAX_BYTES + ": 0")));
    assertEquals(Runtime.getRuntime().maxMemory() / 8, FooterCache.maxBytes(
        com.typesafe.config.ConfigFactory.parseString(FooterCache.MAX_BYTES + ": auto")));
  }

  @Test
  void aFailedDecodeIsNotKept() throws IOException {
    FooterCache cache = new FooterCache(64 << 20);
    Path file = dir.resolve("broken.parquet");
    Files.write(file, new byte[] {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', '1'});
    assertThrows(ParquetCorruptionException.class, () -> cache.get(fs, hadoop(file)));
    assertThrows(ParquetCorruptionException.class, () -> cache.get(fs, hadoop(file)));
    assertEquals(2, cache.decodes());
    assertEquals(0, cache.size());
  }

  @Test
  void estimateGrowsWithChunksAndStatistics() throws IOException {
    Path narrow = dir.resolve("narrow.parquet");
    Path wide = dir.resolve("wide.parquet");
    TestFileGenerator.wideInt64(narrow, 10, 200, 1 << 10, 4 << 10, 1);
    TestFileGenerator.wideInt64(wide, 100, 200, 1 << 10, 40 << 10, 1);
    FooterCache cache = new FooterCache(64 << 20);
    FileMetadata n = cache.get(fs, hadoop(narrow));
    FileMetadata w = cache.get(fs, hadoop(wide));
    long chunksN = n.rowGroups().stream().mapToLong(rg -> rg.columns().size()).sum();
    long chunksW = w.rowGroups().stream().mapToLong(rg -> rg.columns().size()).sum();
    assertTrue(chunksW > 2 * chunksN, chunksN + " vs " + chunksW);
    double perChunkN = (double) FooterCache.estimatedBytes(n) / chunksN;
    double perChunkW = (double) FooterCache.estimatedBytes(w) / chunksW;
    assertTrue(perChunkN > 150 && perChunkW > 150 && perChunkW < 1000, perChunkN + " / " + perChunkW);
  }

  /** Of a footer's key-values the cache keeps what Drill reads, with the values the file holds. */
  @Test
  void keepsOnlyTheKeyValuesDrillReads() throws IOException {
    Path file = dir.resolve("drill-written.parquet");
    MessageType schema = MessageTypeParser.parseMessageType("message t { required int32 d (DATE); }");
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(hadoop(file)).withConf(new Configuration())
        .withType(schema).withExtraMetaData(Map.of("drill.version", "1.4.0", "drill-writer.version", "2",
            "is.date.correct", "true", "ARROW:schema", "x".repeat(10_000))).build()) {
      w.write(new SimpleGroupFactory(schema).newGroup().append("d", 1));
    }
    FooterCache cache = new FooterCache(64 << 20);
    assertEquals(Map.of("drill.version", "1.4.0", "drill-writer.version", "2", "is.date.correct", "true"),
        cache.get(fs, hadoop(file)).keyValues());

    org.apache.hadoop.fs.Path pyarrow = hadoop(WriterFiles.dir().resolve("pyarrow.parquet"));
    try (var in = fs.open(pyarrow)) {
      assertTrue(FooterReader.read(in, pyarrow.toString(), fs.getFileStatus(pyarrow).getLen()).keyValues()
          .containsKey("ARROW:schema"), "the full decode has it");
    }
    assertEquals(Map.of(), cache.get(fs, pyarrow).keyValues());
  }

  private Path lineitem(String name, int rows) throws IOException {
    Path sub = Files.createDirectories(dir.resolve(name));
    return TestFileGenerator.lineitemLike(sub, rows, CompressionCodecName.SNAPPY, 64 * 1024).path();
  }

  private static org.apache.hadoop.fs.Path hadoop(Path file) {
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  private static FileSystem local() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
