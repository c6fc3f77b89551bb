package io.turboparquet.scan;

import io.turboparquet.decode.ValueSink;
import io.turboparquet.decode.ValuesDecoder;

/**
 * A batch's byte limit: how many of the current page's next rows (flat) or records (nested) still
 * fit it, asking the values decoder for an upper bound before decoding. Cheap while far from the
 * limit (one bound for the whole run); near it, a per-page index of defined values and record
 * starts, made once per page on first use, lets it bisect.
 */
final class BatchBudget {
  private final PageCursor cursor;
  private final ValueSink sink;
  private final int maxDef;
  private final int maxRep;
  private long byteLimit = Long.MAX_VALUE;
  /**
   * Defined values before each entry of the page ({@code pageDefined[0, pageEntries]}) and, for
   * nested columns, the entries that start a record; for the page of serial {@code pageDefinedSerial}.
   */
  private int[] pageDefined = new int[0];
  private int[] pageStarts = new int[0];
  private int pageStartCount;
  private long pageDefinedSerial = -1;

  BatchBudget(PageCursor cursor, ValueSink sink, int maxDef, int maxRep) {
    this.cursor = cursor;
    this.sink = sink;
    this.maxDef = maxDef;
    this.maxRep = maxRep;
  }

  /** The limit of the batch about to be read. */
  void limit(long byteLimit) {
    this.byteLimit = byteLimit;
  }

  /** Bytes the batch may still add. */
  private long room() {
    return byteLimit - sink.byteSize();
  }

  /**
   * How many of the next {@code k} rows of the page fit the byte limit: all when the decoder's bound
   * for k values does (no extra pass), else the most whose defined values' bound does, found by
   * bisection; at least one when the batch has no row yet ({@code done == 0}).
   */
  int fitFlat(int k, int done) {
    long room = room();
    ValuesDecoder decoder = cursor.decoder();
    if (decoder.maxBytes(k) <= room) {
      return k;
    }
    int[] defined = maxDef == 0 ? null : pageDefined(); // required columns: one value per row
    int base = cursor.entryIndex();
    if (defined != null && decoder.maxBytes(defined[base + k] - defined[base]) <= room) {
      return k; // the nulls made the first bound too high
    }
    int lo = 0; // fits
    int hi = k; // does not fit
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (decoder.maxBytes(defined == null ? mid : defined[base + mid] - defined[base]) <= room) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo == 0 && done == 0 ? 1 : lo;
  }

  /** Whether {@code n} more defined values of a nested column surely fit. */
  boolean nestedFits(int n) {
    return nestedBound(n) <= room();
  }

  /** An upper bound of the bytes that {@code n} defined values of a nested column add. */
  private long nestedBound(int n) {
    return sink.isVariableWidth() ? cursor.decoder().maxBytes(n) : (long) n * sink.width();
  }

  /**
   * Where to end the entries {@code [start, end)} of the page (end: a record start or the page's
   * end) so that the batch stays within its byte limit: the last record boundary whose values'
   * bound fits; {@code start} when none does and the batch already has a whole record
   * ({@code rowsDone > 0}); else the end of the first record (or of the record that continues from
   * the last page), which is taken whatever its size.
   */
  int fitNested(int start, int end, int rowsDone) {
    int[] defined = pageDefined();
    int[] starts = pageStarts;
    // Candidate ends: the record starts in (start, end), then end itself.
    int from = firstAbove(starts, pageStartCount, start);
    int n = firstAtLeast(starts, pageStartCount, end) - from + 1;
    long room = room();
    int lo = -1; // fits
    int hi = n; // does not fit
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      int cut = mid == n - 1 ? end : starts[from + mid];
      if (nestedBound(defined[cut] - defined[start]) <= room) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    if (lo >= 0) {
      return lo == n - 1 ? end : starts[from + lo];
    }
    if (cursor.reps()[start] == 0 && rowsDone > 0) {
      return start;
    }
    return n == 1 ? end : starts[from];
  }

  /** Index of the first of {@code a[0, count)} (ascending) above {@code v}. */
  private static int firstAbove(int[] a, int count, int v) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Index of the first of {@code a[0, count)} (ascending) at least {@code v}. */
  private static int firstAtLeast(int[] a, int count, int v) {
    return firstAbove(a, count, v - 1);
  }

  /**
   * Defined values before each entry of the current page (and, for nested columns, its record
   * starts in {@link #pageStarts}), made once per page, the first time a batch nears its limit.
   */
  private int[] pageDefined() {
    if (pageDefinedSerial == cursor.pageSerial()) {
      return pageDefined;
    }
    int n = cursor.pageEntries();
    if (pageDefined.length < n + 1) {
      pageDefined = new int[Math.max(n + 1, pageDefined.length * 2)];
    }
    byte[] d = cursor.defs();
    int[] out = pageDefined;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
      out[i + 1] = out[i] + ((d[i] & 0xFF) == maxDef ? 1 : 0);
    }
    if (maxRep > 0) {
      if (pageStarts.length < n) {
        pageStarts = new int[Math.max(n, pageStarts.length * 2)];
      }
      int count = 0;
      byte[] r = cursor.reps();
      for (int i = 0; i < n; i++) {
        if (r[i] == 0) {
          pageStarts[count++] = i;
        }
      }
      pageStartCount = count;
    }
    pageDefinedSerial = cursor.pageSerial();
    return out;
  }
}
