package io.turboparquet.page;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.codec.Decompressor;
import io.turboparquet.page.codec.Decompressors;
import java.io.IOException;
import java.util.zip.CRC32;

/**
 * Turns a page as stored into its uncompressed bytes, checking its CRC first when asked. Pages
 * that are not compressed are passed on without a copy. For V2 data pages the levels, which are
 * never compressed, are copied in front of the decompressed values, so every page comes out in one
 * buffer: levels then values. One per column reader (the codec state is not thread-safe).
 *
 * <p>Output buffers come back through {@link #recycle(ByteBuf)}: the decompressor keeps one spare
 * and reuses it for the next page, so a chunk's pages cost one allocation, not one each.
 */
public final class PageDecompressor {
  private final ChunkLocation location;
  private final CompressionCodec codec;
  private final BufferSource source;
  private final boolean verifyChecksums;
  private final int maxPageBytes;
  /** Claims within this many bytes of the codec's bound pass: headers and framing of tiny pages. */
  private static final long EXPANSION_SLACK = 1024;
  /** A claim above both this and {@link #MEASURE_RATIO} x the stored bytes is measured first. */
  private static final long MEASURE_ABOVE = 32L << 20;
  private static final long MEASURE_RATIO = 64;
  private Decompressor decompressor;
  private CRC32 crc;
  private ByteBuf spare;
  /** Larger buffers are not kept as the spare: a chunk with one huge page holds it only while decoding it. */
  private static final int MAX_SPARE = 64 << 20;
  private ByteBuf handedOut;

  /** @param maxPageBytes the largest uncompressed page read; larger claims are refused before allocating */
  public PageDecompressor(ChunkLocation location, BufferSource source, boolean verifyChecksums, int maxPageBytes) {
    this.location = location;
    this.codec = location.chunk().codec();
    this.source = source;
    this.verifyChecksums = verifyChecksums;
    this.maxPageBytes = maxPageBytes;
  }

  /**
   * The page's uncompressed bytes in a buffer the caller owns and gives back with
   * {@link #recycle(ByteBuf)}; the page itself is not released.
   */
  public ByteBuf decompress(Page page) throws IOException {
    PageHeaderInfo h = page.header();
    ByteBuf body = page.body();
    if (codec == null) { // the footer tolerates codecs from the future; reading them is an error
      throw new ParquetCorruptionException(location.context(), "unknown compression codec id "
          + location.chunk().codecId());
    }
    // The page readers checked it before reading the page; pages read otherwise (RowGroupPruning) are checked here.
    location.checkPageSize(page.offset(), h.uncompressedSize(), maxPageBytes);
    if (verifyChecksums && h.hasCrc()) {
      verifyCrc(page);
    }
    int levels = h.type() == PageType.DATA_PAGE_V2
        ? h.repetitionLevelsByteLength() + h.definitionLevelsByteLength() : 0;
    boolean compressed = codec != CompressionCodec.UNCOMPRESSED && h.compressed();
    if (!compressed) {
      ParquetCorruptionException.validate(h.compressedSize() == h.uncompressedSize(), location.context(),
          "page at offset %d is not compressed but its sizes differ (%d stored, %d uncompressed)",
          page.offset(), h.compressedSize(), h.uncompressedSize());
      return body.retainedDuplicate();
    }
    checkClaim(page, levels);
    ByteBuf out = take(h.uncompressedSize());
    try {
      if (levels > 0) {
        out.setBytes(0, body, body.readerIndex(), levels);
      }
      decompressor().decompress(body, body.readerIndex() + levels, h.compressedSize() - levels, out, levels,
          h.uncompressedSize() - levels);
      out.writerIndex(h.uncompressedSize());
      return out;
    } catch (IOException | RuntimeException e) {
      recycle(out);
      throw failure(page, e);
    }
  }

  /** A codec's failure on {@code page}, with the file, chunk and page named. */
  private IOException failure(Page page, Exception e) {
    if (e instanceof UnsupportedOperationException) {
      throw location.context().unsupported(e.getMessage(), e);
    }
    PageHeaderInfo h = page.header();
    return new ParquetCorruptionException(location.context(), "cannot decompress the " + h.type() + " at offset "
        + page.offset() + " (" + codec + ", " + h.compressedSize() + " -> " + h.uncompressedSize() + " bytes): "
        + e.getMessage(), e);
  }

  /**
   * Checks a compressed page's declared size (already within the page size limit) before a buffer of
   * that size is allocated: within what the codec's format can expand the stored bytes to, and, when the
   * claim is large and far above the stored bytes, equal to what they really decompress to
   * (measured through a small window; ZSTD, BROTLI and GZIP can expand far enough to need it).
   */
  private void checkClaim(Page page, int levels) throws IOException {
    PageHeaderInfo h = page.header();
    long stored = (long) h.compressedSize() - levels;
    long claim = (long) h.uncompressedSize() - levels;
    ParquetCorruptionException.validate(stored >= 0 && claim >= 0, location.context(),
        "page at offset %d has %d bytes of levels, more than its sizes (%d stored, %d uncompressed)", page.offset(),
        levels, h.compressedSize(), h.uncompressedSize());
    long ratio = Decompressors.maxExpansion(codec);
    ParquetCorruptionException.validate(ratio == Long.MAX_VALUE || claim <= stored * ratio + EXPANSION_SLACK,
        location.context(), "page at offset %d claims %d uncompressed bytes from %d %s bytes, more than %s can expand to",
        page.offset(), h.uncompressedSize(), stored, codec, codec);
    if (claim > MEASURE_ABOVE && claim > stored * MEASURE_RATIO) {
      ByteBuf body = page.body();
      long real;
      try {
        real = decompressor().measure(body, body.readerIndex() + levels, (int) stored, claim);
      } catch (IOException | RuntimeException e) {
        throw failure(page, e);
      }
      ParquetCorruptionException.validate(real < 0 || real == claim, location.context(),
          "page at offset %d decompresses to %s bytes of values, its header claims %d", page.offset(),
          real > claim ? "more than " + claim : Long.toString(real), claim);
    }
  }

  private Decompressor decompressor() {
    if (decompressor == null) {
      decompressor = Decompressors.create(codec);
    }
    return decompressor;
  }

  /** Gives back a buffer from {@link #decompress(Page)}: kept as the spare if it was ours, else released. */
  public void recycle(ByteBuf buf) {
    if (buf == handedOut && spare == null && buf.refCnt() == 1 && buf.capacity() <= MAX_SPARE) {
      buf.clear();
      spare = buf;
    } else {
      buf.release();
    }
    if (buf == handedOut) {
      handedOut = null;
    }
  }

  private ByteBuf take(int size) {
    ByteBuf out;
    if (spare != null && spare.capacity() >= size) {
      out = spare;
      spare = null;
    } else {
      if (spare != null) {
        spare.release();
        spare = null;
      }
      out = source.buffer(size);
    }
    handedOut = out;
    return out;
  }

  /** Releases the spare buffer. */
  public void close() {
    if (spare != null) {
      spare.release();
      spare = null;
    }
  }

  private void verifyCrc(Page page) throws ParquetCorruptionException {
    if (crc == null) {
      crc = new CRC32();
    }
    crc.reset();
    ByteBuf body = page.body();
    crc.update(body.nioBuffer(body.readerIndex(), page.header().compressedSize()));
    int actual = (int) crc.getValue();
    ParquetCorruptionException.validate(actual == page.header().crc(), location.context(),
        "page at offset %d fails its CRC check (stored %08x, computed %08x)", page.offset(), page.header().crc(),
        actual);
  }
}
