package io.turboparquet.page;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.crypto.ChunkDecryptor;
import io.turboparquet.format.crypto.ModuleType;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import java.io.IOException;

/**
 * The pages of an encrypted column chunk (Parquet modular encryption): each header is a GCM module,
 * each page a GCM or CTR module. Its page readers ask it for a header and a body in place of
 * reading them plain; the page they return carries the plaintext, so decompression and decoding do
 * not know about encryption.
 *
 * <p>Which AAD a header has is decided before it is decrypted, by where it is: a page before the
 * chunk's data_page_offset is its dictionary page; the others are data pages, numbered from 0.
 * The header found must then be of that kind.
 *
 * <p>A page's plaintext goes into the buffer of the chunk's previous page once that page has been
 * released (its only holder left is this object), else into a new buffer, which is kept in its
 * place: a chunk read page after page (decompressed, then released) costs one allocation, not one a
 * page. {@link #close()} gives the kept buffer back.
 *
 * <p>Public for the one reader of a page outside this package: dictionary pruning
 * ({@code scan.RowGroupPruning}) reads a chunk's dictionary page through it, as the page readers do.
 */
public final class EncryptedPages implements AutoCloseable {
  /** No page header legitimately comes near this (as for plaintext headers, {@link PageHeaderDecoder}). */
  private static final int MAX_HEADER_BYTES = 16 << 20;
  /** Larger plaintexts are not kept: a chunk with one huge page holds it only while that page is read. */
  private static final int MAX_KEPT = 8 << 20;

  private final ChunkDecryptor decryptor;
  private final ChunkLocation location;
  private final BufferSource buffers;
  private final PageHeaderDecoder headers;
  /** The last page's buffer, one reference ours; null when none is kept. */
  private ByteBuf kept;

  /** Null when the chunk is not encrypted; fails, naming the column, when it is and its key is unavailable. */
  public static EncryptedPages of(ChunkLocation location, BufferSource buffers, PageHeaderDecoder headers) throws IOException {
    ChunkDecryptor decryptor = location.chunk().decryptor();
    if (decryptor == null) {
      return null;
    }
    decryptor.requireKey();
    return new EncryptedPages(decryptor, location, buffers, headers);
  }

  private EncryptedPages(ChunkDecryptor decryptor, ChunkLocation location, BufferSource buffers,
      PageHeaderDecoder headers) {
    this.decryptor = decryptor;
    this.location = location;
    this.buffers = buffers;
    this.headers = headers;
  }

  /**
   * The header of the page at {@code offset}, next in {@code in}, which is left at the page's body;
   * {@code dataPage} is the ordinal this page has if it is a data page. Its {@code headerLength} is
   * the stored module's; its {@code compressedSize} still the stored page module's.
   */
  public PageHeaderInfo header(ChunkInput in, long offset, int dataPage) throws IOException {
    boolean dictionary = offset < location.chunk().dataPageOffset();
    byte[] plain = decryptor.readModule(in, offset,
        dictionary ? ModuleType.DICTIONARY_PAGE_HEADER : ModuleType.DATA_PAGE_HEADER, dataPage, MAX_HEADER_BYTES);
    PageHeaderInfo header = headers.decode(plain, offset, location.describe());
    if (dictionary != (header.type() == PageType.DICTIONARY_PAGE)) {
      throw location.corruption(offset, "an encrypted " + header.type() + " header lies "
          + (dictionary ? "before" : "after") + " the chunk's data_page_offset " + location.chunk().dataPageOffset(),
          null);
    }
    return header.withSizes((int) (in.position() - offset), header.compressedSize());
  }

  /**
   * The plaintext page whose (stored) header was just read: its module is read from {@code in}
   * (the header's compressed size, checked against the chunk as plain pages are), decrypted and
   * released; the returned header's compressed size is the plaintext's. Its CRC is dropped:
   * parquet-java computes it over the stored (encrypted) module, which GCM authenticates anyway,
   * so checked against the plaintext it would refuse intact pages.
   */
  public Page page(ChunkInput in, PageHeaderInfo header, long offset, int dataPage, int maxPageBytes, long firstRow,
      long rows) throws IOException {
    ByteBuf stored = PageReader.body(in, header, offset, location, maxPageBytes);
    ByteBuf plain;
    try {
      plain = decryptor.page(stored, offset, header.type() == PageType.DICTIONARY_PAGE ? ModuleType.DICTIONARY_PAGE
          : ModuleType.DATA_PAGE, dataPage, this::buffer);
    } finally {
      stored.release();
    }
    return new Page(header.withSizes(header.headerLength(), plain.readableBytes()).withoutCrc(), plain, offset,
        firstRow, rows);
  }

  /**
   * A buffer of at least {@code capacity} bytes for a page's plaintext: the kept one when its page
   * has been released and it is large enough, else a new one from the scan's source, kept in turn
   * (a kept buffer still held by its page is left to that page's holder to free).
   */
  private ByteBuf buffer(int capacity) {
    if (kept != null) {
      if (kept.refCnt() == 1 && kept.capacity() >= capacity) {
        return kept.clear().retain();
      }
      kept.release();
      kept = null;
    }
    ByteBuf b = buffers.buffer(capacity);
    if (capacity <= MAX_KEPT) {
      kept = b.retain();
    }
    return b;
  }

  /** Gives back the kept buffer; pages handed out stay their holders'. */
  @Override
  public void close() {
    if (kept != null) {
      kept.release();
      kept = null;
    }
  }
}
