package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;

/**
 * One column's share of a batch, in direct buffers owned by its column reader and valid until the
 * reader's next batch.
 *
 * <p>Flat columns (not under a repeated field): {@link #values()} has one slot per row; for optional
 * columns {@link #validity()} has one byte per row, 1 when the value is defined, and null slots are
 * zero (fixed width) or empty (variable width); when the column's maximum definition level exceeds
 * one, {@link #definitionLevels()} also has each row's level (which ancestor is null). Nested columns: {@link #repetitionLevels()} and
 * {@link #definitionLevels()} have one byte per level entry and {@link #values()} holds only the
 * defined values, densely.
 */
public final class ColumnBatch {
  private final ColumnDescriptor column;
  private final ValueSink values;
  private ByteBuf validity;
  private ByteBuf repetitionLevels;
  private ByteBuf definitionLevels;
  private int rowCount;
  private int entryCount;
  private int nonNullCount;

  ColumnBatch(ColumnDescriptor column, ValueSink values) {
    this.column = column;
    this.values = values;
  }

  public ColumnDescriptor column() {
    return column;
  }

  public ValueSink values() {
    return values;
  }

  /** Flat optional columns: one byte per row, 1 = defined; null otherwise. */
  public ByteBuf validity() {
    return validity;
  }

  /** Nested columns: one byte per entry; null for flat columns. */
  public ByteBuf repetitionLevels() {
    return repetitionLevels;
  }

  /** One byte per entry: nested columns, and flat ones whose maximum definition level exceeds one; else null. */
  public ByteBuf definitionLevels() {
    return definitionLevels;
  }

  public int rowCount() {
    return rowCount;
  }

  /** Level entries (nested) or rows (flat). */
  public int entryCount() {
    return entryCount;
  }

  /** Defined values in this batch. */
  public int nonNullCount() {
    return nonNullCount;
  }

  void set(int rows, int entries, int nonNull, ByteBuf validity, ByteBuf rep, ByteBuf def) {
    this.rowCount = rows;
    this.entryCount = entries;
    this.nonNullCount = nonNull;
    this.validity = validity;
    this.repetitionLevels = rep;
    this.definitionLevels = def;
  }
}
