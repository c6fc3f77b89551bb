package io.turboparquet.format.thrift;

import io.turboparquet.format.ParquetCorruptionException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Compact protocol over an {@link InputStream}, one byte at a time so it never reads past the
 * struct (a page header is followed by the page body). Reusable: {@link #reset} it per struct,
 * which allocates nothing.
 */
public final class StreamCompactReader extends CompactReader {
  /** No page header legitimately comes near this; it bounds what a hostile one can allocate. */
  private static final int MAX_STRUCT_BYTES = 16 << 20;

  private InputStream in;
  private long consumed;
  private String where;
  private String what;
  private long offset;

  public StreamCompactReader(String file, int maxStringLength) {
    super(file, maxStringLength);
  }

  /** Starts a new struct ({@code what}, e.g. "page header") at file offset {@code offset} on {@code in}. */
  public StreamCompactReader reset(InputStream in, String where, String what, long offset) {
    this.in = in;
    this.where = where;
    this.what = what;
    this.offset = offset;
    this.consumed = 0;
    return this;
  }

  @Override
  protected String context() {
    return where + ": " + what + " at offset " + offset;
  }

  @Override
  protected int readByte() throws ParquetCorruptionException {
    int b;
    try {
      b = in.read();
    } catch (IOException e) {
      throw new ParquetCorruptionException(file, context() + ": cannot read (" + e.getMessage() + ")", e);
    }
    if (b < 0) {
      throw corrupt("unexpected end of the data");
    }
    consumed++;
    return b;
  }

  @Override
  protected void skipBytes(int n) throws ParquetCorruptionException {
    for (int i = 0; i < n; i++) {
      readByte();
    }
  }

  @Override
  protected byte[] readBytes(int n) throws ParquetCorruptionException {
    byte[] out = new byte[n];
    int done = 0;
    while (done < n) {
      int r;
      try {
        r = in.read(out, done, n - done);
      } catch (IOException e) {
        throw new ParquetCorruptionException(file, context() + ": cannot read (" + e.getMessage() + ")", e);
      }
      if (r < 0) {
        throw corrupt("unexpected end of the data");
      }
      done += r;
      consumed += r;
    }
    return out;
  }

  @Override
  protected long remaining() {
    return Math.max(0, MAX_STRUCT_BYTES - consumed);
  }

  @Override
  public long consumed() {
    return consumed;
  }
}
