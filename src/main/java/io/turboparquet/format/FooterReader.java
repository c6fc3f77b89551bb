package io.turboparquet.format;

import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.io.ErrorContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Reads the raw footer bytes from the end of a file; decoding is separate (and timed separately).
 * Files with an encrypted footer (magic PARE) are refused as unsupported; files encrypted with a
 * plaintext footer end with PAR1 and fail where a column's metadata is encrypted.
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
    ParquetCorruptionException.validate(fileLength >= MAGIC.length + TAIL, file,
        "is not a Parquet file: %d bytes is too short", fileLength);
    int tailLength = (int) Math.min(fileLength, SPECULATIVE_TAIL);
    byte[] tail = new byte[tailLength];
    in.readFully(fileLength - tailLength, tail, 0, tailLength);
    int end = tailLength - TAIL; // where the footer ends in tail
    if (tail[end + 4] == 'P' && tail[end + 5] == 'A' && tail[end + 6] == 'R' && tail[end + 7] == 'E') {
      throw ErrorContext.of(file).unsupported("is an encrypted Parquet file (its footer ends with PARE): Parquet"
          + " modular encryption is not supported");
    }
    ParquetCorruptionException.validate(tail[end + 4] == 'P' && tail[end + 5] == 'A' && tail[end + 6] == 'R'
        && tail[end + 7] == '1', file, "is not a Parquet file: it does not end with PAR1");
    int footerLength = (tail[end] & 0xff) | (tail[end + 1] & 0xff) << 8 | (tail[end + 2] & 0xff) << 16
        | (tail[end + 3] & 0xff) << 24;
    ParquetCorruptionException.validate(footerLength > 0 && footerLength <= fileLength - TAIL - MAGIC.length, file,
        "footer length %d does not fit in a file of %d bytes", footerLength, fileLength);
    if (tailLength == fileLength) {
      ParquetCorruptionException.validate(tail[0] == 'P' && tail[1] == 'A' && tail[2] == 'R' && tail[3] == '1', file,
          "is not a Parquet file: it does not start with PAR1");
    }
    if (footerLength <= end) {
      return Arrays.copyOfRange(tail, end - footerLength, end);
    }
    // Only a file longer than the tail gets here (footerLength <= fileLength - 12 < end otherwise):
    // the tail holds the footer's last `end` bytes, one more read its first footerLength - end.
    byte[] footer = new byte[footerLength];
    System.arraycopy(tail, 0, footer, footerLength - end, end);
    in.readFully(fileLength - TAIL - footerLength, footer, 0, footerLength - end);
    return footer;
  }

  /** Reads and decodes the footer: every column chunk, no statistics. */
  public static FileMetadata read(FSDataInputStream in, String file, long fileLength) throws IOException {
    return read(in, file, fileLength, FooterOptions.DEFAULT);
  }

  /** Reads the footer and decodes what {@code options} asks for. */
  public static FileMetadata read(FSDataInputStream in, String file, long fileLength, FooterOptions options)
      throws IOException {
    byte[] footer = readFooterBytes(in, file, fileLength);
    return FooterDecoder.decode(file, fileLength, footer, 0, footer.length, options);
  }
}
