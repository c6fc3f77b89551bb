package io.turboparquet.format.crypto;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ErrorContext;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/**
 * The modules of one encrypted column chunk: its page headers and pages, column and offset index,
 * bloom filter. Made with the footer ({@link FileDecryptor#chunk}) and kept in the chunk's model, so
 * every reader of the chunk finds it there; immutable, shared by the threads that read the chunk.
 * A chunk whose key is unavailable has one too: it fails, naming the column, when the chunk is read.
 */
public final class ChunkDecryptor {
  private final ErrorContext where;
  private final ModuleCipher cipher; // null when the key is unavailable
  private final String unavailable;
  private final boolean ctrPages;
  private final byte[] fileAad;
  private final int rowGroup;
  private final int column;

  ChunkDecryptor(ErrorContext where, ModuleCipher cipher, boolean ctrPages, byte[] fileAad, int rowGroup,
      int column) {
    this.where = where;
    this.cipher = cipher;
    this.unavailable = null;
    this.ctrPages = ctrPages;
    this.fileAad = fileAad;
    this.rowGroup = rowGroup;
    this.column = column;
  }

  private ChunkDecryptor(ErrorContext where, String unavailable) {
    this.where = where;
    this.cipher = null;
    this.unavailable = unavailable;
    this.ctrPages = false;
    this.fileAad = null;
    this.rowGroup = -1;
    this.column = -1;
  }

  /** The decryptor of an encrypted chunk whose key is unavailable, {@code why} (no key bytes in it). */
  public static ChunkDecryptor unavailable(ErrorContext where, String why) {
    return new ChunkDecryptor(where, why);
  }

  /** Throws, naming the file and column, when this chunk's key is unavailable. */
  public void requireKey() throws KeyUnavailableException {
    if (cipher == null) {
      throw new KeyUnavailableException(where, "is an encrypted column and cannot be read: " + unavailable);
    }
  }

  /** Whether the chunk's key is known. */
  public boolean hasKey() {
    return cipher != null;
  }

  /**
   * The plaintext of the module {@code buf[off, off + len)} as stored: its 4-byte length, then
   * nonce, ciphertext and tag ({@code page}: the data page ordinal for data page modules, else ignored).
   */
  public byte[] module(byte[] buf, int off, int len, ModuleType type, int page) throws ParquetCorruptionException {
    requireKey();
    return open(cipher, where, buf, off, len, Aad.of(fileAad, type, rowGroup, column, page), type);
  }

  /**
   * Reads one GCM module (a page header) from {@code in}, whose next byte is at file offset
   * {@code offset}: its length, checked to be at most {@code maxBytes} before anything is read
   * for it, then its bytes; returns the plaintext.
   */
  public byte[] readModule(InputStream in, long offset, ModuleType type, int page, int maxBytes) throws IOException {
    requireKey();
    ErrorContext at = where.page(offset);
    checkOrdinal(at, type, page);
    byte[] head = in.readNBytes(ModuleCipher.LENGTH);
    if (head.length < ModuleCipher.LENGTH) {
      throw new ParquetCorruptionException(at, "the encrypted " + type + " runs past the end of the column chunk");
    }
    long n = littleEndian(head, 0);
    if (n < ModuleCipher.NONCE + ModuleCipher.TAG || n > maxBytes) {
      throw new ParquetCorruptionException(at, "the encrypted " + type + " claims " + n + " bytes, not within ["
          + (ModuleCipher.NONCE + ModuleCipher.TAG) + ", " + maxBytes + "]");
    }
    byte[] module = new byte[ModuleCipher.LENGTH + (int) n];
    System.arraycopy(head, 0, module, 0, ModuleCipher.LENGTH);
    // readNBytes reads what is there: a short count is the chunk's end, never an allocation beyond it
    if (in.readNBytes(module, ModuleCipher.LENGTH, (int) n) != n) {
      throw new ParquetCorruptionException(at, "the encrypted " + type + " of " + n
          + " bytes runs past the end of the column chunk");
    }
    return open(cipher, at, module, 0, module.length, Aad.of(fileAad, type, rowGroup, column, page), type);
  }

  /**
   * The plaintext of the page module {@code stored} (its readable bytes, as the page header's
   * compressed size gave them) in a buffer from {@code buffers}, which the caller owns; {@code stored}
   * stays the caller's. AES-GCM pages are authenticated; AES-CTR pages (AES_GCM_CTR_V1) are not.
   */
  public ByteBuf page(ByteBuf stored, long offset, ModuleType type, int page, BufferSource buffers)
      throws IOException {
    requireKey();
    ErrorContext at = where.page(offset);
    checkOrdinal(at, type, page);
    int len = stored.readableBytes();
    int overhead = ModuleCipher.LENGTH + ModuleCipher.NONCE + (ctrPages ? 0 : ModuleCipher.TAG);
    long n = len < ModuleCipher.LENGTH ? -1 : stored.getUnsignedIntLE(stored.readerIndex());
    if (len < overhead || n != len - ModuleCipher.LENGTH) {
      throw new ParquetCorruptionException(at, "the encrypted " + type + " of " + len + " bytes has a module"
          + " length of " + n + " (it must be the stored size less " + ModuleCipher.LENGTH + ", at least "
          + (overhead - ModuleCipher.LENGTH) + ")");
    }
    ByteBuf out = buffers.buffer(Math.max(1, len - overhead));
    try {
      ByteBuffer src = stored.nioBuffer(stored.readerIndex() + ModuleCipher.LENGTH, len - ModuleCipher.LENGTH);
      ByteBuffer dst = out.nioBuffer(0, len - overhead);
      int plain = ctrPages ? cipher.ctr(src, dst)
          : cipher.gcm(src, dst, Aad.of(fileAad, type, rowGroup, column, page));
      out.writerIndex(plain);
      return out;
    } catch (GeneralSecurityException e) {
      out.release();
      throw failed(at, type, e);
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** Whether data pages are AES-CTR (not authenticated). */
  public boolean ctrPages() {
    return ctrPages;
  }

  static byte[] open(ModuleCipher cipher, ErrorContext at, byte[] buf, int off, int len, byte[] aad, ModuleType type)
      throws ParquetCorruptionException {
    long n = len < ModuleCipher.LENGTH ? -1 : littleEndian(buf, off);
    if (n < ModuleCipher.NONCE + ModuleCipher.TAG || n != len - ModuleCipher.LENGTH) {
      throw new ParquetCorruptionException(at, "the encrypted " + type + " of " + len + " bytes has a module length"
          + " of " + n + " (it must be the stored size less 4, at least 28)");
    }
    try {
      return cipher.gcm(buf, off + ModuleCipher.LENGTH, len - ModuleCipher.LENGTH, aad);
    } catch (GeneralSecurityException e) {
      throw failed(at, type, e);
    }
  }

  /** AADs hold a data page's ordinal as a short: a chunk has at most 32,768 data pages. */
  private static void checkOrdinal(ErrorContext at, ModuleType type, int page) throws ParquetCorruptionException {
    if (type.hasPageOrdinal() && (page < 0 || page > Short.MAX_VALUE)) {
      throw new ParquetCorruptionException(at, "an encrypted column chunk has at most " + (Short.MAX_VALUE + 1)
          + " data pages; this is page " + page);
    }
  }

  static ParquetCorruptionException failed(ErrorContext at, ModuleType type, GeneralSecurityException e) {
    // AEADBadTagException: a wrong key, a wrong AAD prefix and changed bytes look the same to GCM.
    return new ParquetCorruptionException(at, "cannot decrypt the " + type + ": wrong key or AAD prefix, or"
        + " the file was altered (" + e.getClass().getSimpleName() + ")");
  }

  static long littleEndian(byte[] b, int at) {
    return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
  }

  @Override
  public String toString() {
    return "ChunkDecryptor[" + where.where() + (cipher == null ? ", no key" : ctrPages ? ", AES-CTR pages" : "") + "]";
  }
}
