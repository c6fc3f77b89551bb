package io.turboparquet.scan;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.FileOpener;
import io.turboparquet.page.AsyncPageReader;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.PageReader;
import io.turboparquet.page.PageSource;
import io.turboparquet.page.PrefetchBudget;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.Comparator;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Scans one row group over a projection, batch by batch. Each column has its own stream, page
 * source and reader; with parallel decoding the columns of a batch are decoded as separate tasks on
 * the decode pool, and every column must come back with the batch's row count.
 */
public final class RowGroupScanner implements AutoCloseable {
  private final ScanContext context;
  private final String file;
  private final RowGroupMeta rowGroup;
  private final List<ColumnChunkReader> readers = new ArrayList<>();
  private final List<FSDataInputStream> streams = new ArrayList<>();
  /** Reader indexes by decreasing uncompressed chunk size: the order parallel decode starts them. */
  private final int[] largestFirst;
  private long rowsDone;

  public RowGroupScanner(ScanContext context, FileMetadata meta, Path path, int rowGroupIndex,
      List<ColumnDescriptor> projection) throws IOException {
    this.context = context;
    this.file = meta.file();
    this.rowGroup = meta.rowGroups().get(rowGroupIndex);
    ScanOptions options = context.options();
    int bufferSize = options.bufferSizeFor(projection.size());
    PrefetchBudget prefetch = new PrefetchBudget(options.prefetchBudget());
    try {
      for (ColumnDescriptor column : projection) {
        ColumnChunkMeta chunk = rowGroup.column(column.index());
        ChunkLocation location = new ChunkLocation(file, rowGroupIndex, chunk);
        FSDataInputStream in = FileOpener.open(context.fileSystem(), path, meta.fileLength(),
            options.readAheadHint());
        streams.add(in);
        ChunkInput input = options.openChunk(in, meta, chunk, bufferSize, context.buffers());
        PageReader pageReader = new PageReader(input, location);
        PageSource pages = options.asyncPageReads()
            ? new AsyncPageReader(pageReader, context.scanPool(), options.queueDepth(), prefetch)
            : pageReader;
        readers.add(new ColumnChunkReader(location, pages, input, context.buffers(), options.verifyChecksums(),
            context.metrics()));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    largestFirst = IntStream.range(0, projection.size()).boxed()
        .sorted(Comparator.comparingLong(
            (Integer i) -> -rowGroup.column(projection.get(i).index()).totalUncompressedSize()))
        .mapToInt(Integer::intValue).toArray();
  }

  public RowGroupMeta rowGroup() {
    return rowGroup;
  }

  /** The next batch, or null when the row group is done. */
  public Batch next() throws IOException {
    long remaining = rowGroup.numRows() - rowsDone;
    if (remaining <= 0) {
      return null;
    }
    int rows = (int) Math.min(context.options().batchSize(), remaining);
    List<ColumnBatch> columns = context.options().parallelDecode() && readers.size() > 1
        ? readParallel(rows) : readSerial(rows);
    for (ColumnBatch c : columns) {
      ParquetCorruptionException.validate(c.rowCount() == rows, file,
          "row group %d column %s: has %d rows at row %d where the row group promises %d more (batch of %d)",
          rowGroup.index(), c.column().dottedPath(), c.rowCount(), rowsDone, remaining, rows);
    }
    Batch batch = new Batch(rowGroup.index(), rowsDone, rows, columns);
    rowsDone += rows;
    return batch;
  }

  private List<ColumnBatch> readSerial(int rows) throws IOException {
    List<ColumnBatch> out = new ArrayList<>(readers.size());
    for (ColumnChunkReader r : readers) {
      out.add(r.readBatch(rows));
    }
    return out;
  }

  /**
   * Decodes every column as its own task and waits for all of them, even after a failure. The
   * tasks go to the decode pool largest column first, and the calling thread runs them too, from
   * the smallest end (a FutureTask runs once, whoever gets to it), so it helps instead of idling.
   */
  private List<ColumnBatch> readParallel(int rows) throws IOException {
    List<FutureTask<ColumnBatch>> tasks = new ArrayList<>(readers.size());
    for (ColumnChunkReader r : readers) {
      tasks.add(new FutureTask<>(() -> r.readBatch(rows)));
    }
    for (int i : largestFirst) {
      context.decodePool().execute(tasks.get(i));
    }
    for (int j = largestFirst.length - 1; j >= 0; j--) {
      tasks.get(largestFirst[j]).run();
    }
    List<ColumnBatch> out = new ArrayList<>(readers.size());
    Throwable failure = null;
    boolean interrupted = false;
    for (Future<ColumnBatch> f : tasks) {
      while (true) {
        try {
          out.add(f.get());
          break;
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
          break;
        } catch (InterruptedException e) {
          interrupted = true; // still wait: the task uses buffers close() will release
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      if (failure == null) {
        failure = new InterruptedIOException("interrupted while decoding " + file);
      }
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    if (failure != null) {
      throw new IOException(failure);
    }
    return out;
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (ColumnChunkReader r : readers) {
      try {
        r.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    readers.clear();
    for (FSDataInputStream in : streams) {
      try {
        in.close();
      } catch (IOException | RuntimeException e) {
        // closing a read-only stream: nothing is lost
      }
    }
    streams.clear();
    if (first != null) {
      throw first;
    }
  }
}
