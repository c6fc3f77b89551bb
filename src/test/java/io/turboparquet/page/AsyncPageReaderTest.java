package io.turboparquet.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.BufferedDirectBufInputStream;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The async page reader hands back exactly the pages the sync one reads, and cleans up after itself. */
class AsyncPageReaderTest {
  private static final java.nio.file.Path CORPUS = java.nio.file.Path.of(
      System.getProperty("turbo.parquet.testing", "../shared/data/parquet-testing"));
  private static ExecutorService scanPool;
  private static FileSystem fs;
  private final TrackingBufferSource buffers = new TrackingBufferSource();

  @BeforeAll
  static void setUp() throws IOException {
    scanPool = Executors.newFixedThreadPool(2);
    fs = FileSystem.getLocal(new Configuration()).getRaw();
  }

  @AfterAll
  static void tearDown() {
    scanPool.shutdownNow();
  }

  @AfterEach
  void noLeaks() {
    assertEquals(0, buffers.outstanding(), "buffers still held after the test");
  }

  private static Path corpus(String name) {
    return new Path(CORPUS.resolve(name).toAbsolutePath().toUri());
  }

  private static FileMetadata footer(Path path) throws IOException {
    long length = fs.getFileStatus(path).getLen();
    try (FSDataInputStream in = fs.open(path)) {
      return FooterReader.read(in, path.getName(), length);
    }
  }

  private PageReader syncReader(FSDataInputStream in, FileMetadata meta, int rowGroup, int column, int bufferSize)
      throws IOException {
    ColumnChunkMeta chunk = meta.rowGroups().get(rowGroup).column(column);
    BufferedDirectBufInputStream input = new BufferedDirectBufInputStream(in, meta.file(), meta.fileLength(),
        chunk.startOffset(), chunk.totalCompressedSize(), bufferSize, buffers);
    return new PageReader(input, new ChunkLocation(meta.file(), rowGroup, chunk), Integer.MAX_VALUE, null);
  }

  /** Header and bytes of every page, as text, for comparison. */
  private static List<String> drain(PageSource source) throws IOException {
    List<String> out = new ArrayList<>();
    Page p;
    while ((p = source.next()) != null) {
      try {
        ByteBuf body = p.body();
        out.add(p.offset() + " " + p.header() + " " + ByteBufUtil.hexDump(body, body.readerIndex(),
            body.readableBytes()));
      } finally {
        p.release();
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5})
  void asyncGivesTheSamePagesAsSync(int depth) throws IOException {
    Path path = corpus("alltypes_tiny_pages.parquet");
    FileMetadata meta = footer(path);
    int pagesSeen = 0;
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (int c = 0; c < rg.columns().size(); c++) {
        List<String> sync;
        try (FSDataInputStream in = fs.open(path); PageReader reader = syncReader(in, meta, rg.index(), c, 100)) {
          sync = drain(reader);
        }
        List<String> async;
        try (FSDataInputStream in = fs.open(path);
            AsyncPageReader reader = new AsyncPageReader(syncReader(in, meta, rg.index(), c, 100), scanPool, depth,
                depth == 5 ? new PrefetchBudget(0) : PrefetchBudget.unlimited())) {
          async = drain(reader);
          assertNull(reader.next(), "stays at the end");
        }
        assertEquals(sync, async, "row group " + rg.index() + " column " + c);
        pagesSeen += sync.size();
      }
    }
    assertTrue(pagesSeen > 100, "the file has many small pages: " + pagesSeen);
  }

  /** With no budget left the reader still delivers, one page at a time, and gives the budget back. */
  @Test
  void anExhaustedBudgetStillMakesProgress() throws IOException {
    Path path = corpus("alltypes_tiny_pages.parquet");
    FileMetadata meta = footer(path);
    int largest = 0;
    try (FSDataInputStream in = fs.open(path); PageReader reader = syncReader(in, meta, 0, 1, 100)) {
      Page p;
      while ((p = reader.next()) != null) {
        largest = Math.max(largest, p.body().capacity());
        p.release();
      }
    }
    PrefetchBudget budget = new PrefetchBudget(0);
    int pages = 0;
    try (FSDataInputStream in = fs.open(path);
        AsyncPageReader reader = new AsyncPageReader(syncReader(in, meta, 0, 1, 100), scanPool, 4, budget)) {
      Page p;
      while ((p = reader.next()) != null) {
        assertTrue(budget.used() <= largest, "at most one page queued beyond the budget: " + budget.used());
        p.release();
        pages++;
      }
    }
    assertTrue(pages > 10, "pages read: " + pages);
    assertEquals(0, budget.used(), "every queued page was given back to the budget");
  }

  @Test
  void closingMidwayReleasesQueuedPages() throws IOException {
    Path path = corpus("alltypes_tiny_pages.parquet");
    FileMetadata meta = footer(path);
    for (int i = 0; i < 300; i++) {
      try (FSDataInputStream in = fs.open(path);
          AsyncPageReader reader = new AsyncPageReader(syncReader(in, meta, 0, 0, 64), scanPool, 3,
              PrefetchBudget.unlimited())) {
        for (int taken = 0; taken < i % 3; taken++) {
          reader.next().release();
        }
        // close with pages queued, a read possibly in flight, or a task not yet started
      }
      assertEquals(0, buffers.outstanding(), "iteration " + i);
    }
  }

  @Test
  void errorsReachTheConsumerWithTheFileName(@TempDir java.nio.file.Path dir) throws IOException {
    java.nio.file.Path src = CORPUS.resolve("alltypes_tiny_pages.parquet");
    byte[] bytes = Files.readAllBytes(src);
    Path path = corpus("alltypes_tiny_pages.parquet");
    FileMetadata meta = footer(path);
    ColumnChunkMeta chunk = meta.rowGroups().get(0).column(0);
    // Garble the chunk's second half: some page header there stops decoding.
    int from = (int) (chunk.startOffset() + chunk.totalCompressedSize() / 2);
    for (int i = from; i < chunk.startOffset() + chunk.totalCompressedSize(); i++) {
      bytes[i] = (byte) 0xff;
    }
    java.nio.file.Path broken = dir.resolve("broken.parquet");
    Files.write(broken, bytes);
    Path brokenPath = new Path(broken.toUri());
    try (FSDataInputStream in = fs.open(brokenPath);
        AsyncPageReader reader = new AsyncPageReader(syncReader(in, meta, 0, 0, 1000), scanPool, 2,
            PrefetchBudget.unlimited())) {
      IOException e = assertThrows(IOException.class, () -> drain(reader));
      assertTrue(e.getMessage().contains(meta.file()), e.getMessage());
      assertTrue(e.getMessage().contains("row group 0 column id"), e.getMessage());
    }
  }
}
