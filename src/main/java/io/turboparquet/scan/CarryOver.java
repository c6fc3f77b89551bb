package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.io.BufferSource;

/**
 * The rows a column reader moves from one batch to the next: when another column of the batch
 * ended it earlier, the rows past that point (their values, and their validity for a flat optional
 * column, with its definition levels when they exceed one, or their levels for a nested one) wait here and are put back at the start of the next
 * batch. Its buffers are kept for the next carry-over and released on close.
 */
final class CarryOver implements AutoCloseable {
  private final BufferSource source;
  private final int valueWidth;
  private final int maxDef;
  private final int maxRep;
  private ValueSink values;
  private ByteBuf validity;
  private ByteBuf rep;
  private ByteBuf def;
  private int rows;
  private int entries;
  private int nonNull;

  /** @param valueWidth the width of the reader's value sink ({@link ValueSink#VARIABLE} for byte arrays) */
  CarryOver(BufferSource source, int valueWidth, int maxDef, int maxRep) {
    this.source = source;
    this.valueWidth = valueWidth;
    this.maxDef = maxDef;
    this.maxRep = maxRep;
  }

  /** Rows carried over (0 when none). */
  int rows() {
    return rows;
  }

  /** Level entries of the carried rows (nested columns). */
  int entries() {
    return entries;
  }

  /** Defined values among the carried rows. */
  int nonNull() {
    return nonNull;
  }

  /**
   * Ends {@code batch} after its first {@code keep} rows and takes the rest: their values from
   * {@code sink} and their validity or levels from the batch's buffers. Returns the rows taken.
   */
  int take(ColumnBatch batch, ValueSink sink, ByteBuf validityOut, ByteBuf repOut, ByteBuf defOut, int keep) {
    int total = batch.rowCount();
    if (keep >= total) {
      return 0;
    }
    if (values == null) {
      values = new ValueSink(source, valueWidth);
    }
    values.reset();
    int entriesKept;
    int valuesKept;
    int nonNullKept;
    if (maxRep == 0) {
      entriesKept = keep;
      valuesKept = keep;
      if (maxDef > 0) {
        validity = ensure(validity, total - keep);
        validity.setBytes(0, validityOut, keep, total - keep);
        if (maxDef > 1) {
          def = ensure(def, total - keep);
          def.setBytes(0, defOut, keep, total - keep);
        }
        nonNullKept = 0;
        for (int j = 0; j < keep; j++) {
          nonNullKept += validityOut.getByte(j) != 0 ? 1 : 0;
        }
      } else {
        nonNullKept = keep;
      }
    } else {
      int all = batch.entryCount();
      int starts = 0;
      int e = 0;
      while (e < all && !(repOut.getByte(e) == 0 && starts++ == keep)) {
        e++;
      }
      entriesKept = e;
      int defined = 0;
      for (int j = 0; j < e; j++) {
        defined += (defOut.getByte(j) & 0xFF) == maxDef ? 1 : 0;
      }
      valuesKept = defined;
      nonNullKept = defined;
      rep = ensure(rep, all - e);
      rep.setBytes(0, repOut, e, all - e);
      def = ensure(def, all - e);
      def.setBytes(0, defOut, e, all - e);
    }
    values.appendFrom(sink, valuesKept, sink.position());
    sink.truncate(valuesKept);
    rows = total - keep;
    entries = batch.entryCount() - entriesKept;
    nonNull = batch.nonNullCount() - nonNullKept;
    batch.set(keep, entriesKept, nonNullKept, batch.validity(), batch.repetitionLevels(), batch.definitionLevels());
    return rows;
  }

  /**
   * Puts the carried rows at the start of the next batch: their values appended to the (reset)
   * {@code sink}, their validity (flat optional) or levels (nested) copied to the start of the
   * given buffers, which must hold {@link #rows()} / {@link #entries()} bytes. Nothing is carried after.
   */
  void restore(ValueSink sink, ByteBuf validityOut, ByteBuf repOut, ByteBuf defOut) {
    sink.appendFrom(values, 0, values.position());
    if (maxRep == 0) {
      if (maxDef > 0) {
        validityOut.setBytes(0, validity, 0, rows);
      }
      if (maxDef > 1) {
        defOut.setBytes(0, def, 0, rows);
      }
    } else {
      repOut.setBytes(0, rep, 0, entries);
      defOut.setBytes(0, def, 0, entries);
    }
    drop();
  }

  /** Forgets the carried rows (the scan passes over them undecoded). */
  void drop() {
    rows = 0;
    entries = 0;
    nonNull = 0;
  }

  private ByteBuf ensure(ByteBuf buf, int bytes) {
    if (buf != null && buf.capacity() >= bytes) {
      return buf;
    }
    int size = Math.max(bytes, buf == null ? 1024 : 2 * buf.capacity());
    if (buf != null) {
      buf.release(); // its bytes were restored or dropped: nothing to keep
    }
    return source.buffer(size);
  }

  @Override
  public void close() {
    if (values != null) {
      values.close();
      values = null;
    }
    for (ByteBuf b : new ByteBuf[] {validity, rep, def}) {
      if (b != null) {
        b.release();
      }
    }
    validity = rep = def = null;
  }
}
