package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import java.util.Arrays;

/**
 * One leaf column of a batch as level entries on the heap, for record assembly (the CLI's rows,
 * VARIANT reconstruction): a flat column has one entry per row, a nested one its level entries. Each
 * entry has its repetition and definition level and, when defined, the slot of its value. Copied,
 * because a batch's buffers are valid only until the scanner's next batch.
 */
public final class LeafEntries {
  private final ColumnDescriptor column;
  private final byte[] reps;
  private final int[] defs;
  private final int[] slots;
  private final int[] rowStarts;
  private final byte[] values;
  private final int[] offsets; // variable width; null for fixed width

  public LeafEntries(ColumnBatch batch, int rows) {
    this.column = batch.column();
    int entries = column.isFlat() ? batch.rowCount() : batch.entryCount();
    reps = new byte[entries];
    defs = new int[entries];
    slots = new int[entries];
    rowStarts = new int[rows + 1];
    int max = column.maxDefinitionLevel();
    ByteBuf levels = batch.definitionLevels();
    if (column.isFlat()) {
      ByteBuf validity = batch.validity();
      for (int e = 0; e < entries; e++) {
        // Levels exist for a flat column only when they exceed one; else validity says all.
        defs[e] = levels != null ? levels.getByte(e) & 0xff
            : validity == null || validity.getByte(e) != 0 ? max : max - 1;
        slots[e] = e;
        rowStarts[e] = e;
      }
      rowStarts[rows] = entries;
    } else {
      batch.repetitionLevels().getBytes(0, reps, 0, entries);
      int next = 0;
      int row = 0;
      for (int e = 0; e < entries; e++) {
        defs[e] = levels.getByte(e) & 0xff;
        slots[e] = defs[e] == max ? next++ : -1;
        if (reps[e] == 0 && row < rows) {
          rowStarts[row++] = e;
        }
      }
      while (row <= rows) {
        rowStarts[row++] = entries;
      }
    }
    ValueSink sink = batch.values();
    int n = sink.position();
    if (sink.isVariableWidth()) {
      offsets = new int[n + 1];
      for (int k = 0; k <= n; k++) {
        offsets[k] = sink.offsets().getIntLE(k * 4);
      }
      values = bytes(sink.values(), offsets[n]);
    } else {
      offsets = null;
      values = bytes(sink.values(), n * sink.width());
    }
  }

  private static byte[] bytes(ByteBuf buf, int length) {
    byte[] b = new byte[length];
    if (length > 0) {
      buf.getBytes(0, b, 0, length);
    }
    return b;
  }

  public ColumnDescriptor column() {
    return column;
  }

  /** The first entry of row {@code row}; {@code rowStart(rows)} is the entry count. */
  public int rowStart(int row) {
    return rowStarts[row];
  }

  public int rep(int entry) {
    return reps[entry];
  }

  /**
   * The entries of {@code [from, to)} that start an element of a list whose repetition level is
   * {@code rep}: the first, and each whose repetition level is at most {@code rep}.
   */
  public int[] elementStarts(int from, int to, int rep) {
    int[] starts = new int[to - from];
    int k = 0;
    for (int e = from; e < to; e++) {
      if (e == from || rep(e) <= rep) {
        starts[k++] = e;
      }
    }
    return Arrays.copyOf(starts, k);
  }

  public int def(int entry) {
    return defs[entry];
  }

  /** Whether the entry holds a value (is defined at the leaf's maximum level). */
  public boolean defined(int entry) {
    return defs[entry] == column.maxDefinitionLevel();
  }

  /** The stored bytes of all values; see {@link #valueOffset} and {@link #valueLength}. */
  public byte[] values() {
    return values;
  }

  /** Where the value of defined {@code entry} starts in {@link #values()}. */
  public int valueOffset(int entry) {
    int slot = slots[entry];
    return offsets != null ? offsets[slot] : slot * column.valueWidth();
  }

  public int valueLength(int entry) {
    int slot = slots[entry];
    return offsets != null ? offsets[slot + 1] - offsets[slot] : column.valueWidth();
  }
}
