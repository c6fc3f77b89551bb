package io.turboparquet.scan;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.io.Failures;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Decodes the columns of a {@link RowGroupScanner}'s batches with their readers: with parallel
 * decoding, each column as its own {@link DecodeTask} on the decode pool, queued largest column
 * first while the calling thread runs the rest from the smallest end; else on the calling thread.
 */
final class BatchDecoder {
  private final ScanContext context;
  private final String file;
  private final int rowGroupIndex;
  /** The scanner's column readers, by projection index. */
  private final List<ColumnChunkReader> readers;
  /** Reader indexes by decreasing uncompressed chunk size: the order parallel decode starts them. */
  private final int[] largestFirst;
  /** The column whose error the last {@link #decode} or {@link #finish} threw, or -1. */
  private int failedColumn = -1;

  BatchDecoder(ScanContext context, String file, RowGroupMeta rowGroup, List<ColumnDescriptor> projection,
      List<ColumnChunkReader> readers) {
    this.context = context;
    this.file = file;
    this.rowGroupIndex = rowGroup.index();
    this.readers = readers;
    largestFirst = IntStream.range(0, projection.size()).boxed()
        .sorted(Comparator.comparingLong(
            (Integer i) -> -rowGroup.column(projection.get(i).index()).totalUncompressedSize()))
        .mapToInt(Integer::intValue).toArray();
  }

  /** Whether the options decode in parallel and there is more than one column. */
  boolean parallel() {
    return context.options().decode().parallelDecode() && readers.size() > 1;
  }

  /**
   * Decodes into {@code into} the batch of the columns {@code chosen} selects ({@code chosen[i] ==
   * wanted}; all when {@code chosen} is null): in parallel on the decode pool when it is on and
   * more than one column is to be decoded, else on this thread.
   */
  void decode(ColumnBatch[] into, boolean[] chosen, boolean wanted, long start, int rows) throws IOException {
    int count = 0;
    for (int i = 0; i < readers.size(); i++) {
      count += chosen == null || chosen[i] == wanted ? 1 : 0;
    }
    if (parallel() && count > 1) {
      ColumnBatch[] done = finish(submit(chosen, wanted, start, rows));
      for (int i = 0; i < done.length; i++) {
        if (done[i] != null) {
          into[i] = done[i];
        }
      }
      return;
    }
    long byteLimit = context.options().decode().batchBytes();
    failedColumn = -1;
    for (int i = 0; i < readers.size(); i++) {
      if (chosen == null || chosen[i] == wanted) {
        try {
          context.checkCancelled(where(i));
          into[i] = readers.get(i).readBatch(start, rows, byteLimit);
        } catch (IOException | RuntimeException e) {
          failedColumn = i;
          throw e;
        }
      }
    }
  }

  private ErrorContext where(int column) {
    return ErrorContext.of(file).inRowGroup(rowGroupIndex).column(readers.get(column).column().dottedPath());
  }

  /** The column whose error the last decode threw (the first in column order that failed), or -1. */
  int failedColumn() {
    return failedColumn;
  }

  /** The chosen columns' decodes of a batch, each its own task, queued on the decode pool largest column first. */
  DecodeTask[] submit(boolean[] chosen, boolean wanted, long start, int rows) {
    DecodeTask[] tasks = new DecodeTask[readers.size()];
    long byteLimit = context.options().decode().batchBytes();
    for (int i = 0; i < readers.size(); i++) {
      if (chosen == null || chosen[i] == wanted) {
        ColumnChunkReader r = readers.get(i);
        ErrorContext where = where(i);
        tasks[i] = new DecodeTask(() -> {
          context.checkCancelled(where);
          return r.readBatch(start, rows, byteLimit);
        });
      }
    }
    for (int i : largestFirst) {
      if (tasks[i] != null) {
        context.decodePool().execute(tasks[i]);
      }
    }
    return tasks;
  }

  /**
   * Waits for every task of a batch, even after a failure. The calling thread runs the tasks no
   * pool thread has started yet, from the smallest end, so it helps instead of idling. Columns
   * without a task come back null.
   */
  ColumnBatch[] finish(DecodeTask[] tasks) throws IOException {
    for (int j = largestFirst.length - 1; j >= 0; j--) {
      if (tasks[largestFirst[j]] != null) {
        tasks[largestFirst[j]].run();
      }
    }
    boolean interrupted = awaitAll(tasks);
    ColumnBatch[] out = new ColumnBatch[tasks.length];
    Throwable failure = null;
    failedColumn = -1;
    for (int i = 0; i < tasks.length; i++) {
      if (tasks[i] != null) {
        if (failure == null && tasks[i].failure() != null) {
          failure = tasks[i].failure();
          failedColumn = i;
        }
        out[i] = tasks[i].result();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      if (failure == null) {
        failure = ErrorContext.of(file).inRowGroup(rowGroupIndex).interrupted("interrupted while decoding");
      }
    }
    Failures.rethrow(failure);
    return out;
  }

  /** Waits for every task to finish or be skipped; true if the thread was interrupted meanwhile. */
  static boolean awaitAll(DecodeTask[] tasks) {
    boolean interrupted = false;
    for (DecodeTask t : tasks) {
      if (t == null) {
        continue;
      }
      while (true) {
        try {
          t.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // still wait: the task uses buffers close() will release
        }
      }
    }
    return interrupted;
  }
}
