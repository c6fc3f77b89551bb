package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.RangeReads;
import io.turboparquet.io.StoreReads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * One part of a {@link RowGroupFetch}: a positional read into a buffer of its own, on a stream of
 * its own, or a part of the fetch's vectored read. Runs once, on whichever thread claims it.
 */
final class FetchPart implements Runnable {
  private static final int NEW = 0;
  private static final int CLAIMED = 1;
  private final RowGroupFetch fetch;
  private final AtomicInteger state = new AtomicInteger(NEW);
  private final CountDownLatch done = new CountDownLatch(1);
  private final ByteBuf buffer;
  private final long start;
  private final int length;
  private volatile Throwable error;
  /** The buffer handed to a vectored read for this part (a view of ours), if it got one. */
  private volatile ByteBuffer target;

  /** @param buffer {@code length} bytes for the part's bytes, released by the fetch */
  FetchPart(RowGroupFetch fetch, ByteBuf buffer, long start, int length) {
    this.fetch = fetch;
    this.buffer = buffer;
    this.start = start;
    this.length = length;
  }

  long start() {
    return start;
  }

  int length() {
    return length;
  }

  /** The part's bytes, once {@link #await()} has returned and {@link #check} has passed. */
  ByteBuf buffer() {
    return buffer;
  }

  /** A view of this part's buffer, for a vectored read to fill in place. */
  ByteBuffer view() {
    ByteBuffer view = buffer.nioBuffer(0, length);
    target = view;
    return view;
  }

  @Override
  public void run() {
    if (!state.compareAndSet(NEW, CLAIMED)) {
      return;
    }
    try {
      long t0 = System.nanoTime();
      ScanContext context = fetch.context();
      try (FSDataInputStream in = FileOpener.open(context.fileSystem(), fetch.path(), fetch.meta().fileLength(),
          context.options().io().readAheadHint(), start, length)) {
        RangeReads.forStream(in).readFully(start, buffer, 0, length);
        context.metrics().addStoreReads(StoreReads.of(in));
      }
      context.metrics().addDiskRead(System.nanoTime() - t0, length, 1);
    } catch (Throwable t) {
      error = t;
    } finally {
      done.countDown();
    }
  }

  /** Takes the part for a vectored read, which completes it through {@link #vectoredDone}. */
  boolean claim() {
    return state.compareAndSet(NEW, CLAIMED);
  }

  /** The vectored read of this part ended: keep the bytes (copying them if they are not in our buffer). */
  void vectoredDone(ByteBuffer data, Throwable failure, long startNanos) {
    try {
      if (failure != null) {
        error = failure;
      } else if (data.remaining() != length) {
        error = new IOException("vectored read returned " + data.remaining() + " bytes, wanted " + length);
      } else {
        if (data != target) {
          buffer.setBytes(0, data.duplicate());
          fetch.releaseExtra(data);
        }
        fetch.context().metrics().addDiskRead(System.nanoTime() - startNanos, length, 1);
      }
    } catch (Throwable t) {
      error = t;
    } finally {
      done.countDown();
    }
  }

  /** Stops a part that has not started; it then never reads. */
  void cancel() {
    if (state.compareAndSet(NEW, CLAIMED)) {
      error = new IOException("cancelled");
      done.countDown();
    }
  }

  void await() throws IOException {
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        if (fetch.isClosed()) {
          interrupted = true; // closing: the buffer is released after this, so wait anyway
        } else {
          Thread.currentThread().interrupt();
          throw ErrorContext.of(fetch.meta().file()).inRowGroup(fetch.rowGroup())
              .interrupted("interrupted waiting for its bytes");
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  void check(ColumnDescriptor column) throws IOException {
    Throwable t = error;
    if (t != null) {
      throw ErrorContext.of(fetch.meta().file()).inRowGroup(fetch.rowGroup()).column(column.dottedPath())
          .io("reading bytes [" + start + ", " + (start + length) + "): " + t, t);
    }
  }
}
