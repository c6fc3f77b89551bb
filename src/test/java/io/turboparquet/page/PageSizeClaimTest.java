package io.turboparquet.page;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.io.DirectBufInputStream;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.CorruptFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * A page header's uncompressed size is a claim: it is checked against the limit, the codec's
 * densest expansion and, when large and far above the stored bytes, the real decompressed size,
 * all before a buffer of that size exists (the page readers check the limit before reading a page at
 * all). Valid pages at the codecs' densest still read.
 */
class PageSizeClaimTest {
  private static final String FILE = "hostile.parquet";
  private static final int MB = 1 << 20;

  private final TrackingBufferSource source = new TrackingBufferSource();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  @Test
  void claimBeyondTheCodecsDensestExpansionIsRefusedUnallocated() throws IOException {
    byte[] plain = new byte[1000];
    ParquetCorruptionException e = assertRefused(CompressionCodec.SNAPPY, Snappy.compress(plain), Integer.MAX_VALUE - 16,
        Integer.MAX_VALUE - 16);
    assertTrue(e.getMessage().contains("more than SNAPPY can expand to"), e.getMessage());
    // 1 MiB of zeros is far denser in zstd than SNAPPY allows, but still within zstd's own bound.
    e = assertRefused(CompressionCodec.ZSTD, Zstd.compress(new byte[MB]), 1 << 30, Integer.MAX_VALUE - 16);
    assertTrue(e.getMessage().contains("more than ZSTD can expand to"), e.getMessage());
  }

  @Test
  void largeClaimFarAboveTheStoredBytesIsMeasuredFirst() throws IOException {
    byte[] brotli = resource("/io/turboparquet/page/codec/brotli-pattern-1m.br"); // 1 MiB of text
    ParquetCorruptionException e = assertRefused(CompressionCodec.BROTLI, brotli, 1536 * MB, Integer.MAX_VALUE - 16);
    assertTrue(e.getMessage().contains("decompresses to " + MB + " bytes of values, its header claims " + 1536 * MB),
        e.getMessage());
    byte[] gzip = gzip(new byte[40 * MB]);
    e = assertRefused(CompressionCodec.GZIP, gzip, 40 * MB - 1, Integer.MAX_VALUE - 16);
    assertTrue(e.getMessage().contains("more than " + (40 * MB - 1)), e.getMessage());
  }

  @Test
  void claimAboveMaxPageBytesIsRefusedNamingTheOption() throws IOException {
    byte[] plain = text(256 * 1024);
    ParquetCorruptionException e = assertRefused(CompressionCodec.SNAPPY, Snappy.compress(plain), plain.length,
        64 * 1024);
    assertTrue(e.getMessage().contains("maxPageBytes"), e.getMessage());
    assertTrue(e.getMessage().startsWith("[" + FILE + "] row group 0 column v"), e.getMessage());
  }

  @Test
  void pageReaderRefusesAnUncompressedPageAboveMaxPageBytesUnread(@TempDir java.nio.file.Path dir) throws IOException {
    java.nio.file.Path file = CorruptFiles.base(dir); // uncompressed
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(file.toUri()))) {
      FileMetadata meta = FooterReader.read(in, file.toString(), Files.size(file));
      ColumnChunkMeta chunk = meta.rowGroups().get(0).column(0);
      ChunkLocation location = new ChunkLocation(meta.file(), 0, chunk);
      int size;
      try (PageReader pages = new PageReader(input(in, meta, chunk), location, Integer.MAX_VALUE, null)) {
        Page first = pages.next();
        size = first.header().uncompressedSize();
        first.release();
      }
      long allocations = source.allocations();
      try (PageReader pages = new PageReader(input(in, meta, chunk), location, size - 1, null)) {
        PageTooLargeException e = assertThrows(PageTooLargeException.class, pages::next);
        assertTrue(e.getMessage().contains("row group 0 column id, page at offset " + chunk.startOffset() + ": claims "
            + size + " uncompressed bytes, more than the limit of " + (size - 1) + " (option maxPageBytes)"),
            e.getMessage());
      }
      assertEquals(allocations, source.allocations(), "read a page that was refused");
    }
  }

  /** One exact read per page: a page's buffer is allocated only when it is read. */
  private DirectBufInputStream input(FSDataInputStream in, FileMetadata meta, ColumnChunkMeta chunk) {
    return new DirectBufInputStream(in, meta.file(), meta.fileLength(), chunk.startOffset(),
        chunk.totalCompressedSize(), source);
  }

  @Test
  void pagesAtTheCodecsDensestStillRead() throws IOException {
    // zstd's densest form (RLE blocks, 4 bytes per 128 KiB) and deflate's: both large enough to be measured.
    byte[] zeros = new byte[40 * MB];
    assertReads(CompressionCodec.ZSTD, Zstd.compress(zeros), zeros);
    assertReads(CompressionCodec.GZIP, gzip(zeros), zeros);
    byte[] text = text(MB);
    assertReads(CompressionCodec.SNAPPY, Snappy.compress(text), text);
  }

  private ParquetCorruptionException assertRefused(CompressionCodec codec, byte[] stored, int claim, int maxPageBytes) {
    PageDecompressor decompressor = new PageDecompressor(location(codec), source, false, maxPageBytes);
    Page page = page(stored, claim);
    try {
      return assertThrows(ParquetCorruptionException.class, () -> decompressor.decompress(page));
    } finally {
      page.release();
      decompressor.close();
      assertEquals(0, source.allocations(), "allocated for a claim that was refused");
    }
  }

  private void assertReads(CompressionCodec codec, byte[] stored, byte[] plain) throws IOException {
    PageDecompressor decompressor = new PageDecompressor(location(codec), source, false, Integer.MAX_VALUE - 16);
    Page page = page(stored, plain.length);
    try {
      ByteBuf out = decompressor.decompress(page);
      byte[] got = new byte[out.readableBytes()];
      out.getBytes(out.readerIndex(), got);
      decompressor.recycle(out);
      assertArrayEquals(plain, got, codec + " page");
    } finally {
      page.release();
      decompressor.close();
    }
  }

  private static Page page(byte[] stored, int claim) {
    PageHeaderInfo header = new PageHeaderInfo(PageType.DATA_PAGE, 20, claim, stored.length, false, 0, 1,
        Encoding.PLAIN, Encoding.RLE, Encoding.RLE, 0, 0, 0, 0, true);
    ByteBuf body = Unpooled.directBuffer(stored.length).writeBytes(stored);
    return new Page(header, body, 4);
  }

  private static ChunkLocation location(CompressionCodec codec) {
    ColumnDescriptor column = new ColumnDescriptor(0, List.of("v"), PhysicalType.BYTE_ARRAY, 0, Repetition.REQUIRED,
        0, 0, null);
    return new ChunkLocation(FILE, 0, new ColumnChunkMeta(column, codec, List.of(Encoding.PLAIN), 1, 1, 1, 4, -1));
  }

  private static byte[] text(int size) {
    byte[] out = new byte[size];
    for (int i = 0; i < size; i++) {
      out[i] = (byte) ('a' + (i * 7 + i / 13) % 26);
    }
    return out;
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(plain);
    }
    return bytes.toByteArray();
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = PageSizeClaimTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }
}
