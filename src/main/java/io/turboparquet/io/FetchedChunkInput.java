package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * A column chunk whose bytes were (or are being) read ahead into memory, in one or more pieces
 * (the buffers of the reads that hold it): waits once for the reads to finish, then serves page
 * headers and retained slices (no copy) from them. A page that spans two pieces is copied into a
 * buffer of its own. The chunk's bytes are all there is: a page that runs past them fails, as it
 * does in every other read mode.
 */
public final class FetchedChunkInput extends ChunkInput {
  /** Blocks until the fetched bytes are in memory; throws the read's error. */
  @FunctionalInterface
  public interface Ready {
    void await() throws IOException;
  }

  private final ErrorContext where; // the file, for errors
  private final long chunkStart;
  private final long chunkEnd;
  private final Ready ready;
  private final WaitListener waits;
  private final BufferSource copies;
  private final long[] pieceStarts; // file offset of each piece's first byte, ascending
  private ByteBuf[] pieces; // file bytes [chunkStart, chunkEnd), in order; released on close
  private int piece; // the piece holding the position, when it is in the chunk
  private boolean waited;
  private long position;

  /** Told how long a consumer waited for the fetched bytes. */
  @FunctionalInterface
  public interface WaitListener {
    void waited(long nanos);
  }

  /**
   * @param pieces the fetched bytes of the chunk in file order, none empty, {@code chunkLength} of
   *     them in all; this input owns the references and releases them on close (the caller, if
   *     this constructor throws)
   * @param copies where a page that spans two pieces is copied to
   */
  public FetchedChunkInput(String file, List<ByteBuf> pieces, long chunkStart, long chunkLength,
      BufferSource copies, Ready ready, WaitListener waits) {
    long total = 0;
    pieceStarts = new long[pieces.size()];
    for (int i = 0; i < pieces.size(); i++) {
      if (pieces.get(i).capacity() == 0) {
        throw new IllegalArgumentException("an empty piece of a chunk at " + chunkStart);
      }
      pieceStarts[i] = chunkStart + total;
      total += pieces.get(i).capacity();
    }
    if (chunkStart < 0 || chunkLength != total) {
      throw new IllegalArgumentException("a chunk of " + chunkLength + " bytes at " + chunkStart + " in pieces of "
          + total);
    }
    this.where = ErrorContext.of(file);
    this.pieces = pieces.toArray(new ByteBuf[0]);
    this.chunkStart = chunkStart;
    this.chunkEnd = chunkStart + chunkLength;
    this.position = chunkStart;
    this.copies = copies;
    this.ready = ready;
    this.waits = waits;
  }

  /** Bytes left in the chunk at the position, once they are in memory (0 when the position is past its end). */
  private int buffered() throws IOException {
    if (pieces == null) {
      throw where.io("read after close");
    }
    if (!waited) {
      long t0 = System.nanoTime();
      ready.await();
      waits.waited(System.nanoTime() - t0);
      waited = true;
    }
    return available();
  }

  /** Makes {@link #piece} the piece holding the position, which lies in the chunk. */
  private void locate() {
    if (position >= pieceStarts[piece] && position - pieceStarts[piece] < pieces[piece].capacity()) {
      return;
    }
    int at = Arrays.binarySearch(pieceStarts, position);
    piece = at >= 0 ? at : -at - 2;
  }

  /** The position's index in its piece; {@link #locate()} first. */
  private int index() {
    return (int) (position - pieceStarts[piece]);
  }

  @Override
  protected void seek(long at) {
    position = at;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, chunkEnd - position));
  }

  @Override
  public int read() throws IOException {
    if (buffered() == 0) {
      return -1;
    }
    locate();
    int b = pieces[piece].getByte(index()) & 0xff;
    position++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int have = buffered();
    if (have == 0) {
      return -1;
    }
    int n = Math.min(len, have);
    for (int done = 0; done < n; ) {
      locate();
      int step = Math.min(n - done, pieces[piece].capacity() - index());
      pieces[piece].getBytes(index(), b, off + done, step);
      position += step;
      done += step;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    position += n;
    return n;
  }

  @Override
  public ByteBuf getNext(int n) throws IOException {
    if (n < 0) {
      throw new IllegalArgumentException("negative length " + n);
    }
    if (buffered() < n) {
      throw ChunkInput.pastEnd(where, n, position, chunkEnd);
    }
    if (n == 0) {
      return Unpooled.EMPTY_BUFFER; // nothing to hold; releasing it is a no-op
    }
    locate();
    if (pieces[piece].capacity() - index() >= n) {
      ByteBuf slice = pieces[piece].retainedSlice(index(), n);
      position += n;
      return slice;
    }
    ByteBuf copy = copies.buffer(n);
    for (int done = 0; done < n; ) {
      locate();
      int step = Math.min(n - done, pieces[piece].capacity() - index());
      copy.writeBytes(pieces[piece], index(), step);
      position += step;
      done += step;
    }
    return copy;
  }

  @Override
  public void close() {
    if (pieces != null) {
      for (ByteBuf p : pieces) {
        p.release();
      }
      pieces = null;
    }
  }
}
