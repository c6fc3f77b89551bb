package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValuesDecoder;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.ChunkLocation;
import java.io.IOException;

/**
 * The read loop of a flat column (not under a repeated field): one value slot per row, plus one
 * validity byte per row when the column is optional, and the definition level of each row when
 * that level can be more than one (which optional ancestor is null matters to group assembly,
 * a VARIANT's above all). Each page entry is a row, so a seek passes
 * over whole pages before the target row undecoded and skips values within the page it lands in.
 */
final class FlatColumnReader extends BatchReader {
  /** Whether batches check the byte limit: variable-width columns (the scanner caps fixed-width ones' rows). */
  private final boolean bounded;
  private byte[] scratch = new byte[0];
  private ByteBuf validity;
  /** Definition levels, one per row, when {@code maxDef > 1}; else null. */
  private ByteBuf defOut;

  FlatColumnReader(ChunkLocation location, PageCursor cursor, BufferSource source) {
    super(location, cursor, source);
    this.bounded = sink.isVariableWidth();
  }

  @Override
  void read(int rows) throws IOException {
    if (!bounded) {
      sink.reserve(rows); // one allocation of the batch's size, also after detachValues()
    }
    int done = carry.rows();
    int nonNull = carry.nonNull();
    if (done > 0) {
      restoreCarry();
    }
    while (done < rows) {
      if (cursor.entryIndex() == cursor.pageEntries() && !cursor.nextDataPage()) {
        break;
      }
      int k = Math.min(rows - done, cursor.pageEntries() - cursor.entryIndex());
      if (bounded) {
        k = budget.fitFlat(k, done); // near the limit, a few rows at a time, while the next row's bound fits
        if (k == 0) {
          break; // the batch is full
        }
      }
      if (maxDef == 0) {
        cursor.decoder().read(sink, k);
        nonNull += k;
      } else {
        nonNull += readOptionalRun(done, k);
      }
      cursor.advance(k);
      done += k;
    }
    batch.set(done, done, nonNull, maxDef == 0 ? null : validity, null, maxDef > 1 ? defOut : null);
  }

  /** Rows {@code [at, at + k)} of an optional column from the current page; returns defined count. */
  private int readOptionalRun(int at, int k) {
    byte[] valid = scratch(k);
    int defined = 0;
    byte[] levels = cursor.defs();
    int from = cursor.entryIndex();
    for (int i = 0; i < k; i++) {
      int v = (levels[from + i] & 0xFF) == maxDef ? 1 : 0;
      valid[i] = (byte) v;
      defined += v;
    }
    validity = ensure(validity, at + k);
    validity.setBytes(at, valid, 0, k);
    if (maxDef > 1) {
      defOut = ensure(defOut, at + k);
      defOut.setBytes(at, levels, from, k);
    }
    ValuesDecoder decoder = cursor.decoder();
    if (defined == k) {
      decoder.read(sink, k);
    } else if (defined == 0) {
      sink.fill(k);
    } else {
      int i = 0;
      while (i < k) {
        byte v = valid[i];
        int j = i + 1;
        while (j < k && valid[j] == v) {
          j++;
        }
        if (v != 0) {
          decoder.read(sink, j - i);
        } else {
          sink.fill(j - i);
        }
        i = j;
      }
    }
    return defined;
  }

  /**
   * Values within the current page are skipped by the decoder; pages that end before the target
   * are passed over undecoded (their header's value count is their row count in a flat column).
   */
  @Override
  void seek(long from, long target) throws IOException {
    while (!(cursor.entryIndex() < cursor.pageEntries() && target < cursor.pageEndRow())) {
      if (!cursor.nextDataPage(target)) {
        throw location.corruption(cursor.pageOffset(), "the column chunk ends before row " + target, null);
      }
      if (cursor.pageFirstRow() > target) {
        throw location.corruption(cursor.pageOffset(), "the page starts at row " + cursor.pageFirstRow() + ", past row "
            + target + " the scan wants", null);
      }
    }
    cursor.skipEntriesTo((int) (target - cursor.pageFirstRow()));
  }

  /** Whether the rows kept from the last batch, if any, all lie before {@code row}. */
  @Override
  boolean canSkipTo(long row) {
    return rowPosition() + carry.rows() <= row;
  }

  @Override
  void restoreCarry() {
    if (maxDef > 0) {
      validity = ensure(validity, carry.rows());
    }
    if (maxDef > 1) {
      defOut = ensure(defOut, carry.rows());
    }
    carry.restore(sink, validity, null, defOut);
  }

  @Override
  int takeCarry(int rows) {
    return carry.take(batch, sink, validity, null, defOut, rows);
  }

  private byte[] scratch(int n) {
    if (scratch.length < n) {
      scratch = new byte[Math.max(n, Math.min(1 << 20, scratch.length * 2))];
    }
    return scratch;
  }

  @Override
  void releaseBuffers() {
    for (ByteBuf b : new ByteBuf[] {validity, defOut}) {
      if (b != null) {
        b.release();
      }
    }
    validity = defOut = null;
  }
}
