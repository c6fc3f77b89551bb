package io.turboparquet.fuzz;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;

/**
 * The batch contract a consumer (Drill's vectors, the digest) relies on, checked on every batch a
 * fuzz case yields: each column holds the batch's row count; flat columns one value slot per row
 * and a 0/1 validity byte per row when optional; nested columns levels within the column's maxima,
 * a first repetition level of 0, one entry with repetition level 0 per row, one value per defined
 * entry; variable-width offsets start at 0, never decrease and stay within the data.
 */
final class BatchContract {
  private BatchContract() {}

  /** The first broken rule, or null when the batch keeps the contract. */
  static String violation(Batch batch, int expectedColumns) {
    if (batch.rows() <= 0) {
      return "batch of " + batch.rows() + " rows";
    }
    if (batch.columns().size() != expectedColumns) {
      return batch.columns().size() + " columns in a batch of a " + expectedColumns + "-column projection";
    }
    for (ColumnBatch c : batch.columns()) {
      String v = violation(c, batch.rows());
      if (v != null) {
        return "row group " + batch.rowGroup() + " rows from " + batch.firstRow() + " column "
            + c.column().dottedPath() + ": " + v;
      }
    }
    return null;
  }

  private static String violation(ColumnBatch c, int rows) {
    ColumnDescriptor d = c.column();
    ValueSink sink = c.values();
    if (c.rowCount() != rows) {
      return c.rowCount() + " rows in a batch of " + rows;
    }
    int defined;
    if (d.isFlat()) {
      if (c.entryCount() != rows) {
        return c.entryCount() + " entries for " + rows + " flat rows";
      }
      if (sink.position() != rows) {
        return sink.position() + " value slots for " + rows + " flat rows";
      }
      ByteBuf validity = c.validity();
      if (d.isRequired()) {
        defined = rows;
      } else {
        if (validity == null || validity.capacity() < rows) {
          return "optional column without a validity byte per row";
        }
        defined = 0;
        for (int i = 0; i < rows; i++) {
          byte v = validity.getByte(i);
          if (v != 0 && v != 1) {
            return "validity byte " + v + " at row " + i;
          }
          defined += v;
        }
        ByteBuf levels = c.definitionLevels();
        int max = d.maxDefinitionLevel();
        if ((levels != null) != (max > 1) || levels != null && levels.capacity() < rows) {
          return "a flat column of maximum definition level " + max + (levels == null ? " without" : " with")
              + " a level per row";
        }
        for (int i = 0; levels != null && i < rows; i++) {
          int l = levels.getByte(i) & 0xff;
          if (l > max || (l == max) != (validity.getByte(i) == 1)) {
            return "definition level " + l + " at row " + i + " disagrees with its validity " + validity.getByte(i);
          }
        }
      }
    } else {
      int entries = c.entryCount();
      ByteBuf rep = c.repetitionLevels();
      ByteBuf def = c.definitionLevels();
      if (entries < rows || rep == null || def == null || rep.capacity() < entries || def.capacity() < entries) {
        return entries + " level entries (levels " + (rep == null ? "missing" : "present") + ") for " + rows + " rows";
      }
      if (rep.getByte(0) != 0) {
        return "first repetition level " + rep.getByte(0);
      }
      int starts = 0;
      defined = 0;
      for (int i = 0; i < entries; i++) {
        int r = rep.getByte(i) & 0xff;
        int l = def.getByte(i) & 0xff;
        if (r > d.maxRepetitionLevel() || l > d.maxDefinitionLevel()) {
          return "levels rep " + r + " def " + l + " at entry " + i + " above the maxima " + d.maxRepetitionLevel()
              + "/" + d.maxDefinitionLevel();
        }
        starts += r == 0 ? 1 : 0;
        defined += l == d.maxDefinitionLevel() ? 1 : 0;
      }
      if (starts != rows) {
        return starts + " entries start a row in a batch of " + rows;
      }
      if (sink.position() != defined) {
        return sink.position() + " values for " + defined + " defined entries";
      }
    }
    if (c.nonNullCount() != defined) {
      return "nonNullCount " + c.nonNullCount() + " but " + defined + " defined";
    }
    return sink.isVariableWidth() ? offsetsViolation(sink) : widthViolation(sink);
  }

  private static String offsetsViolation(ValueSink sink) {
    ByteBuf offsets = sink.offsets();
    int n = sink.position();
    if (offsets == null || offsets.capacity() < 4L * (n + 1)) {
      return "offsets buffer too small for " + n + " values";
    }
    int previous = offsets.getIntLE(0);
    if (previous != 0) {
      return "first offset " + previous;
    }
    for (int i = 1; i <= n; i++) {
      int o = offsets.getIntLE(4 * i);
      if (o < previous) {
        return "offset " + o + " after " + previous + " at value " + i;
      }
      previous = o;
    }
    if (previous != sink.dataLength() || (n > 0 && sink.values().capacity() < previous)) {
      return "last offset " + previous + " but " + sink.dataLength() + " data bytes in a buffer of "
          + sink.values().capacity();
    }
    return null;
  }

  private static String widthViolation(ValueSink sink) {
    long bytes = (long) sink.position() * sink.width();
    return sink.values().capacity() < bytes ? bytes + " value bytes in a buffer of " + sink.values().capacity() : null;
  }
}
