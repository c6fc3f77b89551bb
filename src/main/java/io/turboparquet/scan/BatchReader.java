package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.ChunkLocation;
import java.io.IOException;

/**
 * What the flat and the nested reader share: the batch they fill from a {@link PageCursor}, its
 * value sink and byte budget, the row the next batch starts at, and the rows carried over between
 * batches ({@link #keep}). The read loops, seeks and the batch's level or validity buffers are the
 * subclasses'.
 */
abstract sealed class BatchReader implements AutoCloseable permits FlatColumnReader, NestedColumnReader {
  final ChunkLocation location;
  final PageCursor cursor;
  final BufferSource source;
  final int maxDef;
  final ValueSink sink;
  final ColumnBatch batch;
  final BatchBudget budget;
  /** Rows moved out of the last batch by {@link #keep}, for the next. */
  final CarryOver carry;
  /** Row of the row group the next batch starts at, unless the scanner asks for a later one. */
  private long rowPosition;

  BatchReader(ChunkLocation location, PageCursor cursor, BufferSource source) {
    ColumnDescriptor column = location.chunk().column();
    this.location = location;
    this.cursor = cursor;
    this.source = source;
    this.maxDef = column.maxDefinitionLevel();
    int maxRep = column.maxRepetitionLevel();
    this.sink = new ValueSink(source, column.valueWidth() > 0 ? column.valueWidth() : ValueSink.VARIABLE);
    this.carry = new CarryOver(source, sink.isVariableWidth() ? ValueSink.VARIABLE : sink.width(), maxDef, maxRep);
    this.batch = new ColumnBatch(column, sink);
    this.budget = new BatchBudget(cursor, sink, maxDef, maxRep);
  }

  /** The reader for the cursor's column: flat or nested. */
  static BatchReader create(ChunkLocation location, PageCursor cursor, BufferSource source) {
    return location.chunk().column().isFlat()
        ? new FlatColumnReader(location, cursor, source)
        : new NestedColumnReader(location, cursor, source);
  }

  /** See {@link ColumnChunkReader#readBatch}. */
  final ColumnBatch readBatch(long firstRow, int rows, long byteLimit) throws IOException {
    budget.limit(byteLimit);
    if (firstRow != rowPosition) {
      seekRow(firstRow);
    }
    sink.reset();
    read(rows);
    rowPosition = firstRow + batch.rowCount();
    return batch;
  }

  private void seekRow(long target) throws IOException {
    if (carry.rows() > 0 || target < rowPosition) {
      throw location.context().illegalState("cannot move from row " + rowPosition + " to row "
          + target + (carry.rows() > 0 ? " with rows carried over" : ""));
    }
    seek(rowPosition, target);
    rowPosition = target;
  }

  /** Fills {@link #batch} with up to {@code rows} rows, those carried over first; the sink is reset. */
  abstract void read(int rows) throws IOException;

  /** Moves the cursor from row {@code from}, where the last batch ended, to row {@code target} (later). */
  abstract void seek(long from, long target) throws IOException;

  /** Whether the rows up to {@code row} can be passed over undecoded; see {@link ColumnChunkReader#canSkipTo}. */
  abstract boolean canSkipTo(long row);

  /** Puts the rows {@link #keep} carried over at the start of the (reset) batch. */
  abstract void restoreCarry();

  /** Moves the last batch's rows from row {@code rows} on into {@link #carry}; returns how many. */
  abstract int takeCarry(int rows);

  /** Releases the subclass's batch buffers. */
  abstract void releaseBuffers();

  final long rowPosition() {
    return rowPosition;
  }

  /** See {@link ColumnChunkReader#keep}. */
  final void keep(int rows) {
    rowPosition -= takeCarry(rows);
  }

  /** See {@link ColumnChunkReader#dropCarriedRows}. */
  final void dropCarriedRows() {
    rowPosition += carry.rows();
    carry.drop();
  }

  final ByteBuf ensure(ByteBuf buf, int bytes) {
    if (buf != null && buf.capacity() >= bytes) {
      return buf;
    }
    ByteBuf bigger = source.buffer(Math.max(bytes, buf == null ? 1024 : buf.capacity() * 2));
    if (buf != null) {
      bigger.setBytes(0, buf, 0, buf.capacity());
      buf.release();
    }
    return bigger;
  }

  @Override
  public final void close() {
    sink.close();
    carry.close();
    releaseBuffers();
  }
}
