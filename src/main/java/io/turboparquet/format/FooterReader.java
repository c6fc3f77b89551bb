package io.turboparquet.format;

import io.turboparquet.format.thrift.FooterDecoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Reads the raw footer bytes from the end of a file; decoding is separate (and timed separately).
 * Files with an encrypted footer (magic PARE) are refused as unsupported; files encrypted with a
 * plaintext footer end with PAR1 and fail where a column's metadata is encrypted.
 */
public final class FooterReader {
  static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final int TAIL = 8;

  private FooterReader() {}

  /** The footer's Thrift bytes. */
  public static byte[] readFooterBytes(FSDataInputStream in, String file, long fileLength) throws IOException {
    ParquetCorruptionException.validate(fileLength >= MAGIC.length + TAIL, file,
        "is not a Parquet file: %d bytes is too short", fileLength);
    byte[] tail = new byte[TAIL];
    in.readFully(fileLength - TAIL, tail, 0, TAIL);
    if (tail[4] == 'P' && tail[5] == 'A' && tail[6] == 'R' && tail[7] == 'E') {
      throw new UnsupportedOperationException("[" + file + "] is an encrypted Parquet file (its footer ends with "
          + "PARE): Parquet modular encryption is not supported");
    }
    ParquetCorruptionException.validate(tail[4] == 'P' && tail[5] == 'A' && tail[6] == 'R' && tail[7] == '1', file,
        "is not a Parquet file: it does not end with PAR1");
    int footerLength = (tail[0] & 0xff) | (tail[1] & 0xff) << 8 | (tail[2] & 0xff) << 16 | (tail[3] & 0xff) << 24;
    ParquetCorruptionException.validate(footerLength > 0 && footerLength <= fileLength - TAIL - MAGIC.length, file,
        "footer length %d does not fit in a file of %d bytes", footerLength, fileLength);
    byte[] head = new byte[MAGIC.length];
    in.readFully(0, head, 0, MAGIC.length);
    ParquetCorruptionException.validate(head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1', file,
        "is not a Parquet file: it does not start with PAR1");
    byte[] footer = new byte[footerLength];
    in.readFully(fileLength - TAIL - footerLength, footer, 0, footerLength);
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
