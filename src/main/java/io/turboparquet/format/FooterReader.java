package io.turboparquet.format;

import io.turboparquet.format.crypto.FileDecryptor;
import io.turboparquet.format.thrift.CryptoDecoder;
import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.io.ErrorContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.parquet.crypto.FileDecryptionProperties;

/**
 * Reads the raw footer bytes from the end of a file; decoding is separate (and timed separately).
 * A file with an encrypted footer (magic PARE) has its footer decrypted here, with the keys of the
 * decryption properties given; files encrypted with a plaintext footer end with PAR1, and the
 * footer decoder verifies their signature and decrypts their columns' metadata.
 */
public final class FooterReader {
  static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final int TAIL = 8;
  /**
   * Bytes read from the end of a file in one call, hoping the footer is among them: on an object
   * store every read is a request with 10-50 ms to its first byte, so the footer costs one request
   * instead of three (length, leading magic, footer). 256 KiB holds the footers of most files (lineitem
   * SF1's, 50 row groups x 16 columns with statistics, is 103 KiB) and takes ~3 ms at the ~90 MB/s of
   * one S3 GET, less than the round trip it saves; a longer footer costs one more read of its head.
   */
  public static final int SPECULATIVE_TAIL = 256 * 1024;

  private FooterReader() {}

  /**
   * The footer's Thrift bytes, in one read when the footer and its 8-byte tail are within the last
   * {@link #SPECULATIVE_TAIL} bytes, else two. The leading magic is checked only when that read
   * covers the whole file: elsewhere it would cost a request of its own, and it guards nothing the
   * footer decoder does not (every offset the footer claims is checked against the file's length);
   * parquet-java's reader checks only the trailing magic too.
   */
  public static byte[] readFooterBytes(FSDataInputStream in, String file, long fileLength) throws IOException {
    FooterBytes footer = readFooter(in, file, fileLength);
    if (footer.encrypted()) {
      throw ErrorContext.of(file).unsupported("has an encrypted footer (it ends with PARE): its bytes are not a"
          + " FileMetaData");
    }
    return footer.bytes();
  }

  /**
   * A footer as stored: FileMetaData, or for an encrypted footer FileCryptoMetaData and the
   * encrypted FileMetaData module.
   */
  public record FooterBytes(byte[] bytes, boolean encrypted) {}

  /** {@link #readFooterBytes}, for either magic. */
  public static FooterBytes readFooter(FSDataInputStream in, String file, long fileLength) throws IOException {
    ParquetCorruptionException.validate(fileLength >= MAGIC.length + TAIL, file,
        "is not a Parquet file: %d bytes is too short", fileLength);
    int tailLength = (int) Math.min(fileLength, SPECULATIVE_TAIL);
    byte[] tail = new byte[tailLength];
    in.readFully(fileLength - tailLength, tail, 0, tailLength);
    int end = tailLength - TAIL; // where the footer ends in tail
    boolean encrypted = tail[end + 4] == 'P' && tail[end + 5] == 'A' && tail[end + 6] == 'R' && tail[end + 7] == 'E';
    ParquetCorruptionException.validate(encrypted || tail[end + 4] == 'P' && tail[end + 5] == 'A'
        && tail[end + 6] == 'R' && tail[end + 7] == '1', file, "is not a Parquet file: it does not end with PAR1");
    byte last = encrypted ? (byte) 'E' : (byte) '1';
    int footerLength = (tail[end] & 0xff) | (tail[end + 1] & 0xff) << 8 | (tail[end + 2] & 0xff) << 16
        | (tail[end + 3] & 0xff) << 24;
    ParquetCorruptionException.validate(footerLength > 0 && footerLength <= fileLength - TAIL - MAGIC.length, file,
        "footer length %d does not fit in a file of %d bytes", footerLength, fileLength);
    if (tailLength == fileLength) {
      ParquetCorruptionException.validate(tail[0] == 'P' && tail[1] == 'A' && tail[2] == 'R' && tail[3] == last, file,
          "is not a Parquet file: it does not start with PAR%c", (char) last);
    }
    if (footerLength <= end) {
      return new FooterBytes(Arrays.copyOfRange(tail, end - footerLength, end), encrypted);
    }
    // Only a file longer than the tail gets here (footerLength <= fileLength - 12 < end otherwise):
    // the tail holds the footer's last `end` bytes, one more read its first footerLength - end.
    byte[] footer = new byte[footerLength];
    System.arraycopy(tail, 0, footer, footerLength - end, end);
    in.readFully(fileLength - TAIL - footerLength, footer, 0, footerLength - end);
    return new FooterBytes(footer, encrypted);
  }

  /** Reads and decodes the footer: every column chunk, no statistics. */
  public static FileMetadata read(FSDataInputStream in, String file, long fileLength) throws IOException {
    return read(in, file, fileLength, FooterOptions.DEFAULT);
  }

  /** Reads the footer and decodes what {@code options} asks for; an encrypted file fails, naming what lacks a key. */
  public static FileMetadata read(FSDataInputStream in, String file, long fileLength, FooterOptions options)
      throws IOException {
    return read(in, file, fileLength, options, null);
  }

  /**
   * Reads the footer and decodes what {@code options} asks for, decrypting it and the columns'
   * metadata with {@code properties} (null: none; a plaintext footer's encrypted columns then fail
   * when read).
   */
  public static FileMetadata read(FSDataInputStream in, String file, long fileLength, FooterOptions options,
      FileDecryptionProperties properties) throws IOException {
    return decode(readFooter(in, file, fileLength), file, fileLength, options, properties);
  }

  /** Decodes a footer as stored, decrypting it (and the columns' metadata) as {@link #read} does. */
  public static FileMetadata decode(FooterBytes footer, String file, long fileLength, FooterOptions options,
      FileDecryptionProperties properties) throws IOException {
    byte[] bytes = footer.bytes();
    if (!footer.encrypted()) {
      return FooterDecoder.decode(file, fileLength, bytes, 0, bytes.length, options, properties, null);
    }
    CryptoDecoder.FileCrypto crypto = CryptoDecoder.fileCryptoMetaData(file, bytes, 0, bytes.length,
        options.maxStringLength());
    FileDecryptor decryptor = FileDecryptor.encryptedFooter(file, properties, crypto.algorithm(), crypto.keyMetadata());
    byte[] plain = decryptor.footer(bytes, crypto.length(), bytes.length - crypto.length());
    return FooterDecoder.decode(file, fileLength, plain, 0, plain.length, options, properties, decryptor);
  }
}
