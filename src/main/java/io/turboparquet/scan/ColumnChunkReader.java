package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.DecodeException;
import io.turboparquet.decode.Decoders;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.decode.LegacyBitPackedLevels;
import io.turboparquet.decode.RleBitPackedHybridDecoder;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.decode.ValuesDecoder;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageDecompressor;
import io.turboparquet.page.PageSource;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Decodes one column chunk batch by batch: takes pages from its {@link PageSource}, decompresses
 * them, decodes levels for the whole page and values for the rows a batch asks for. Flat columns
 * get one value slot per row (plus validity when optional); nested columns get levels per entry and
 * dense values. Runs on whichever thread calls {@link #readBatch(int, long)}, one call at a time.
 *
 * <p>Variable-width and nested columns end a batch early, at a record boundary, when the next
 * records' values could pass the batch's byte limit (asking the decoder for an upper bound before
 * decoding); at least one record is always read. Flat fixed-width columns never check: the scanner
 * caps their rows instead. When another column of the batch ended earlier, {@link #keep(int)} moves
 * the rows past it to the start of the next batch (carry-over).
 */
final class ColumnChunkReader implements AutoCloseable {

  private final ChunkLocation location;
  private final ColumnDescriptor column;
  private final PageSource pages;
  /** Where the pages come from (several segments when page-index skipping leaves gaps), for their read counters. */
  private final java.util.List<ChunkInput> inputs;
  private final PageDecompressor decompressor;
  private final BufferSource source;
  private final ScanMetrics metrics;
  private final int maxDef;
  /** {@link ScanOptions#maxPageEntries()}: checked before a page's levels are decoded into arrays of that size. */
  private final int maxPageEntries;
  private final int maxRep;
  private final ValueSink sink;
  private final ColumnBatch batch;
  private final RleBitPackedHybridDecoder levelDecoder = new RleBitPackedHybridDecoder();
  private final Map<Encoding, ValuesDecoder> decoders = new EnumMap<>(Encoding.class);

  private Dictionary dictionary;
  private ByteBuf page;
  private long pageOffset;
  private int pageEntries;
  private int entryIndex;
  /** No data page with entries has been started yet: the next one must begin a record. */
  private boolean firstDataPage = true;
  /** The current page's levels, unsigned bytes (maxima are at most 255): a quarter of ints' memory. */
  private byte[] defs = new byte[0];
  private byte[] reps = new byte[0];
  private byte[] scratch = new byte[0];
  private ValuesDecoder decoder;
  private ByteBuf validity;
  private ByteBuf repOut;
  private ByteBuf defOut;
  private long waitNanos;
  private long decompressNanos;
  private long decodeNanos;
  private long bytesDecompressed;
  /** Whether batches check the byte limit: variable-width or nested columns. */
  private final boolean bounded;
  private long byteLimit = Long.MAX_VALUE;
  /** Rows moved out of the last batch by {@link #keep}, for the next. */
  private final CarryOver carry;
  /**
   * For the slow limit path, made once per page on first use: defined values before each entry
   * ({@code pageDefined[0, pageEntries]}) and, for nested columns, the entries that start a record.
   */
  private int[] pageDefined = new int[0];
  private int[] pageStarts = new int[0];
  private int pageStartCount;
  private long pageSerial;
  private long pageDefinedSerial = -1;
  /** Row of the row group the next batch starts at, unless the scanner asks for a later one. */
  private long rowPosition;
  /**
   * The row of the first record that starts in the current page (its first entry's, in a flat
   * column), and the row after the last.
   */
  private long pageFirstRow;
  private long pageEndRow;
  /** Records that start in the current page (its entries, in a flat column). */
  private int pageRecords;
  /** Pages come with their rows from an offset index, so each starts a record. */
  private boolean indexedPages;

  ColumnChunkReader(ChunkLocation location, PageSource pages, java.util.List<ChunkInput> inputs, BufferSource source,
      ScanOptions options, ScanMetrics metrics) {
    this.location = location;
    this.column = location.chunk().column();
    if (column.maxDefinitionLevel() > 255 || column.maxRepetitionLevel() > 255) {
      throw new UnsupportedOperationException("[" + location.file() + "] column " + column.dottedPath()
          + " is nested more than 255 levels deep");
    }
    this.pages = pages;
    this.inputs = inputs;
    this.decompressor = new PageDecompressor(location, source, options.verifyChecksums(), options.maxPageBytes());
    this.source = source;
    this.metrics = metrics;
    this.maxDef = column.maxDefinitionLevel();
    this.maxPageEntries = options.maxPageEntries();
    this.maxRep = column.maxRepetitionLevel();
    this.sink = new ValueSink(source, column.valueWidth() > 0 ? column.valueWidth() : ValueSink.VARIABLE);
    this.carry = new CarryOver(source, sink.isVariableWidth() ? ValueSink.VARIABLE : sink.width(), maxDef, maxRep);
    this.batch = new ColumnBatch(column, sink);
    this.bounded = sink.isVariableWidth() || maxRep > 0;
  }

  ColumnDescriptor column() {
    return column;
  }

  /**
   * Decodes the next {@code rows} rows from row {@code firstRow} of the row group on: fewer at the
   * end of the chunk, or when the values of a variable-width or nested column would pass
   * {@code byteLimit} bytes (never fewer than one record). Rows carried over from the last batch
   * come first. A {@code firstRow} past where the last batch ended skips the rows between (flat
   * columns, with nothing carried over: page-index skipping). The result stays valid until the
   * next call.
   */
  ColumnBatch readBatch(long firstRow, int rows, long byteLimit) throws IOException {
    long t0 = System.nanoTime();
    long waitBefore = waitNanos;
    long decompressBefore = decompressNanos;
    try {
      this.byteLimit = byteLimit;
      if (firstRow != rowPosition) {
        seekRow(firstRow);
      }
      sink.reset();
      if (maxRep == 0) {
        readFlat(rows);
      } else {
        readNested(rows);
      }
      rowPosition = firstRow + batch.rowCount();
      return batch;
    } catch (UnsupportedOperationException e) {
      throw e;
    } catch (RuntimeException e) { // no JDK exception leaves the core without the file and page
      throw location.corruption(pageOffset, "cannot decode", e);
    } finally {
      long spent = System.nanoTime() - t0 - (waitNanos - waitBefore) - (decompressNanos - decompressBefore);
      decodeNanos += spent;
    }
  }

  /**
   * Moves a flat column to row {@code target}: values within the current page are skipped by the
   * decoder; pages that end before it are passed over undecoded (their header's value count is
   * their row count in a flat column).
   */
  private void seekRow(long target) throws IOException {
    if (carry.rows() > 0 || target < rowPosition) {
      throw new IllegalStateException(location.describe() + ": cannot move from row " + rowPosition + " to row "
          + target + (carry.rows() > 0 ? " with rows carried over" : ""));
    }
    if (maxRep > 0) {
      seekNested(target);
      return;
    }
    while (!(entryIndex < pageEntries && target < pageEndRow)) {
      if (!nextDataPage(target)) {
        throw location.corruption(pageOffset, "the column chunk ends before row " + target, null);
      }
      if (pageFirstRow > target) {
        throw location.corruption(pageOffset, "the page starts at row " + pageFirstRow + ", past row " + target
            + " the scan wants", null);
      }
    }
    skipEntriesTo((int) (target - pageFirstRow));
    rowPosition = target;
  }

  /**
   * Moves a nested column to row {@code target}: the records before it are passed over by their
   * repetition levels and their defined values skipped by the decoder. Every page on the way is
   * decoded for its levels: only they (or an offset index, checked against them) give a nested
   * page's rows.
   */
  private void seekNested(long target) throws IOException {
    long row = rowPosition; // the row of the next record start at or after entryIndex
    while (true) {
      if (entryIndex == pageEntries) {
        if (!nextDataPage(target)) {
          throw location.corruption(pageOffset, "the column chunk ends before row " + target, null);
        }
        if (pageFirstRow < row || pageFirstRow > target) {
          throw location.corruption(pageOffset, "the page starts at row " + pageFirstRow + ", but the scan is at row "
              + row + " and wants row " + target, null);
        }
        row = pageFirstRow; // later than `row` after pages an offset index let the scan pass over
      }
      byte[] r = reps;
      int i = entryIndex;
      while (i < pageEntries) {
        if (r[i] == 0) {
          if (row == target) {
            break;
          }
          row++;
        }
        i++;
      }
      skipEntriesTo(i);
      if (i < pageEntries) {
        break;
      }
    }
    rowPosition = target;
  }

  /** Passes over the page's entries from the current one to {@code end}: their defined values are skipped by the decoder. */
  private void skipEntriesTo(int end) {
    int defined = maxDef == 0 ? end - entryIndex : definedIn(entryIndex, end);
    if (defined > 0) {
      decoder.skip(defined);
    }
    entryIndex = end;
  }

  /** Defined values among the page's entries {@code [from, to)}. */
  private int definedIn(int from, int to) {
    int defined = 0;
    byte[] d = defs;
    for (int j = from; j < to; j++) {
      defined += (d[j] & 0xFF) == maxDef ? 1 : 0;
    }
    return defined;
  }

  private void readFlat(int rows) throws IOException {
    if (!sink.isVariableWidth()) {
      sink.reserve(rows); // one allocation of the batch's size, also after detachValues()
    }
    int done = carry.rows();
    int nonNull = carry.nonNull();
    if (done > 0) {
      restoreCarry();
    }
    while (done < rows) {
      if (entryIndex == pageEntries && !nextDataPage()) {
        break;
      }
      int k = Math.min(rows - done, pageEntries - entryIndex);
      if (bounded) {
        k = fitFlat(k, done); // near the limit, a few rows at a time, while the next row's bound fits
        if (k == 0) {
          break; // the batch is full
        }
      }
      if (maxDef == 0) {
        decoder.read(sink, k);
        nonNull += k;
      } else {
        nonNull += readOptionalRun(done, k);
      }
      entryIndex += k;
      done += k;
    }
    batch.set(done, done, nonNull, maxDef == 0 ? null : validity, null, null);
  }

  /**
   * How many of the next {@code k} rows of the page fit the byte limit: all when the decoder's bound
   * for k values does (no extra pass), else the most whose defined values' bound does, found by
   * bisection; at least one when the batch has no row yet.
   */
  private int fitFlat(int k, int done) {
    long room = byteLimit - sink.byteSize();
    if (decoder.maxBytes(k) <= room) {
      return k;
    }
    int[] defined = maxDef == 0 ? null : pageDefined(); // required columns: one value per row
    int base = entryIndex;
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

  /** Rows {@code [at, at + k)} of an optional flat column from the current page; returns defined count. */
  private int readOptionalRun(int at, int k) {
    byte[] valid = scratch(k);
    int defined = 0;
    byte[] levels = defs;
    int from = entryIndex;
    for (int i = 0; i < k; i++) {
      int v = (levels[from + i] & 0xFF) == maxDef ? 1 : 0;
      valid[i] = (byte) v;
      defined += v;
    }
    validity = ensure(validity, at + k);
    validity.setBytes(at, valid, 0, k);
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

  private void readNested(int rows) throws IOException {
    int rowsDone = carry.rows();
    int entries = carry.entries();
    int nonNull = carry.nonNull();
    if (rowsDone > 0) {
      restoreCarry();
    }
    while (true) {
      if (entryIndex == pageEntries && (rowsDone == rows && indexedPages || !nextDataPage())) {
        break; // a next page from an offset index starts a record: it is not read for a record that goes on
      }
      int start = entryIndex;
      int i = start;
      byte[] r = reps;
      int spanRows = 0;
      while (i < pageEntries) {
        if (r[i] == 0) {
          if (rowsDone + spanRows == rows) {
            break;
          }
          spanRows++;
        }
        i++;
      }
      boolean partial = false;
      if (i > start && nestedBound(i - start) > byteLimit - sink.byteSize()) {
        int cut = fitNested(start, i, rowsDone);
        if (cut < i) {
          spanRows = 0;
          for (int j = start; j < cut; j++) {
            spanRows += r[j] == 0 ? 1 : 0;
          }
          partial = true;
          i = cut;
        }
      }
      int k = i - start;
      if (k > 0) {
        nonNull += copyLevels(start, k, entries);
        entries += k;
        entryIndex = i;
      }
      rowsDone += spanRows;
      if (partial && k > 0) {
        continue; // near the limit, a few records at a time, while the next record's bound fits
      }
      if (i < pageEntries) {
        break; // the next row starts here and the batch is full
      }
    }
    batch.set(rowsDone, entries, nonNull, null, repOut, defOut);
  }

  /** An upper bound of the bytes that {@code n} defined values of a nested column add. */
  private long nestedBound(int n) {
    return sink.isVariableWidth() ? decoder.maxBytes(n) : (long) n * sink.width();
  }

  /**
   * Where to end the entries {@code [start, end)} of the page (end: a record start or the page's
   * end) so that the batch stays within its byte limit: the last record boundary whose values'
   * bound fits; {@code start} when none does and the batch already has a whole record; else the
   * end of the first record (or of the record that continues from the last page), which is taken
   * whatever its size.
   */
  private int fitNested(int start, int end, int rowsDone) {
    int[] defined = pageDefined();
    int[] starts = pageStarts;
    // Candidate ends: the record starts in (start, end), then end itself.
    int from = firstAbove(starts, pageStartCount, start);
    int n = firstAtLeast(starts, pageStartCount, end) - from + 1;
    long room = byteLimit - sink.byteSize();
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
    if (reps[start] == 0 && rowsDone > 0) {
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
    if (pageDefinedSerial == pageSerial) {
      return pageDefined;
    }
    int n = pageEntries;
    if (pageDefined.length < n + 1) {
      pageDefined = new int[Math.max(n + 1, pageDefined.length * 2)];
    }
    byte[] d = defs;
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
      byte[] r = reps;
      for (int i = 0; i < n; i++) {
        if (r[i] == 0) {
          pageStarts[count++] = i;
        }
      }
      pageStartCount = count;
    }
    pageDefinedSerial = pageSerial;
    return out;
  }

  /**
   * Whether the rows up to {@code row} can be passed over undecoded: a flat column whose rows kept
   * from the last batch ({@link #keep}), if any, all lie before it.
   */
  boolean canSkipTo(long row) {
    return maxRep == 0 && rowPosition + carry.rows() <= row;
  }

  /** Drops the rows kept from the last batch, unread (the scan skips them; see {@link #canSkipTo}). */
  void dropCarriedRows() {
    rowPosition += carry.rows();
    carry.drop();
  }

  /**
   * Ends the last batch after its first {@code rows} rows (another column of the batch ended
   * there) and keeps the rest for the start of the next batch. Called by the scanner between
   * batches, before the batch is handed on.
   */
  void keep(int rows) {
    rowPosition -= carry.take(batch, sink, validity, repOut, defOut, rows);
  }

  /** Puts the rows {@link #keep} carried over at the start of the (reset) batch. */
  private void restoreCarry() {
    if (maxRep == 0) {
      if (maxDef > 0) {
        validity = ensure(validity, carry.rows());
      }
    } else {
      repOut = ensure(repOut, carry.entries());
      defOut = ensure(defOut, carry.entries());
    }
    carry.restore(sink, validity, repOut, defOut);
  }

  /** Copies levels {@code [start, start + k)} of the page to the batch and decodes their values. */
  private int copyLevels(int start, int k, int at) {
    repOut = ensure(repOut, at + k);
    repOut.setBytes(at, reps, start, k);
    int defined = definedIn(start, start + k);
    defOut = ensure(defOut, at + k);
    defOut.setBytes(at, defs, start, k);
    if (defined > 0) {
      decoder.read(sink, defined);
    }
    return defined;
  }

  /**
   * After the row group's last row: the chunk must hold no more values, or the row group's row
   * count and the chunk's pages disagree and the rows read so far cannot be trusted.
   */
  void checkExhausted() throws IOException {
    try {
      if (entryIndex < pageEntries || nextDataPage()) {
        throw location.corruption(pageOffset, "the row group's rows end but the column chunk holds more values", null);
      }
    } finally {
      releasePage();
    }
  }

  /** Moves to the next data page, loading any dictionary page on the way; false at the chunk's end. */
  private boolean nextDataPage() throws IOException {
    return nextDataPage(-1);
  }

  /** {@link #nextDataPage()}, passing over undecoded the pages of a flat column that end by row {@code skipBefore}. */
  private boolean nextDataPage(long skipBefore) throws IOException {
    releasePage();
    while (true) {
      long t0 = System.nanoTime();
      Page p = pages.next();
      waitNanos += System.nanoTime() - t0;
      if (p == null) {
        return false;
      }
      try {
        pageOffset = p.offset();
        PageHeaderInfo h = p.header();
        long firstRow = p.firstRow() >= 0 ? p.firstRow() : pageEndRow;
        if (skipBefore < 0 && h.isDataPage() && firstRow != pageEndRow) {
          // Within a range of rows the pages must follow on: a gap would shift every later row.
          throw location.corruption(pageOffset, "the page starts at row " + firstRow + " where row " + pageEndRow
              + " comes next", null);
        }
        if (skipBefore >= 0 && maxRep == 0 && h.isDataPage() && firstRow + h.numValues() <= skipBefore) {
          pageEndRow = firstRow + h.numValues(); // flat: one value entry per row
          continue;
        }
        long d0 = System.nanoTime();
        ByteBuf bytes = decompressor.decompress(p);
        decompressNanos += System.nanoTime() - d0;
        bytesDecompressed += h.uncompressedSize();
        if (h.type() == PageType.DICTIONARY_PAGE) {
          try {
            loadDictionary(bytes, h);
          } finally {
            decompressor.recycle(bytes);
          }
          continue;
        }
        metrics.addDataPage();
        pageSerial++;
        page = bytes;
        startDataPage(h);
        indexedPages = p.rows() >= 0;
        if (indexedPages && maxRep > 0 && pageEntries > 0 && (reps[0] != 0 || pageRecords != p.rows())) {
          throw location.corruption(pageOffset, "the offset index gives the page " + p.rows() + " rows from a record"
              + " start; its levels hold " + pageRecords + (reps[0] != 0 ? " and continue a record" : ""), null);
        }
        pageFirstRow = firstRow;
        pageEndRow = firstRow + pageRecords;
        if (pageEntries > 0) {
          return true;
        }
        releasePage(); // an empty page
      } catch (UnsupportedOperationException e) {
        throw e;
      } catch (RuntimeException e) {
        throw location.corruption(pageOffset, "cannot read the page", e);
      } finally {
        p.release();
      }
    }
  }

  private void loadDictionary(ByteBuf bytes, PageHeaderInfo h) throws IOException {
    metrics.addDictionaryPage();
    Encoding e = h.encoding();
    ParquetCorruptionException.validate(e == Encoding.PLAIN || e == Encoding.PLAIN_DICTIONARY, location.file(),
        "%s: dictionary page at offset %d uses %s; only PLAIN dictionaries exist", location.describe(), pageOffset, e);
    if (dictionary != null) {
      dictionary.close();
      dictionary = null;
    }
    decoders.remove(Encoding.PLAIN_DICTIONARY);
    decoders.remove(Encoding.RLE_DICTIONARY);
    dictionary = Dictionary.read(bytes, bytes.readerIndex(), h.uncompressedSize(), h.numValues(),
        column.physicalType(), column.typeLength(), source);
  }

  private void startDataPage(PageHeaderInfo h) throws IOException {
    int n = h.numValues();
    ParquetCorruptionException.validate(n <= maxPageEntries, location.file(),
        "%s: page at offset %d claims %d values, more than the limit of %d (option maxPageEntries)",
        location.describe(), pageOffset, n, maxPageEntries);
    int off = page.readerIndex();
    int end = off + h.uncompressedSize();
    if (maxRep > 0 && reps.length < n) {
      reps = new byte[(int) Math.min(maxPageEntries, Math.max(n, reps.length * 2L))];
    }
    if (maxDef > 0 && defs.length < n) {
      defs = new byte[(int) Math.min(maxPageEntries, Math.max(n, defs.length * 2L))];
    }
    if (h.type() == PageType.DATA_PAGE_V2) {
      int repLen = h.repetitionLevelsByteLength();
      int defLen = h.definitionLevelsByteLength();
      if (maxRep > 0) {
        levelDecoder.init(page, off, repLen, bitWidth(maxRep));
        levelDecoder.readLevels(reps, 0, n);
      }
      if (maxDef > 0) {
        levelDecoder.init(page, off + repLen, defLen, bitWidth(maxDef));
        levelDecoder.readLevels(defs, 0, n);
      }
      off += repLen + defLen;
    } else {
      if (maxRep > 0) {
        off = readV1Levels(h.repetitionLevelEncoding(), reps, maxRep, off, end, n);
      }
      if (maxDef > 0) {
        off = readV1Levels(h.definitionLevelEncoding(), defs, maxDef, off, end, n);
      }
    }
    int nonNull = n;
    if (maxDef > 0) {
      nonNull = 0;
      byte[] d = defs;
      int over = 0; // negative once a level passes the maximum
      for (int i = 0; i < n; i++) {
        int v = d[i] & 0xFF;
        nonNull += v == maxDef ? 1 : 0;
        over |= maxDef - v;
      }
      ParquetCorruptionException.validate(over >= 0, location.file(),
          "%s: page at offset %d has a definition level above the column's maximum %d", location.describe(),
          pageOffset, maxDef);
    }
    int rows = maxRep > 0 && n > 0 ? checkRepetitionLevels(h, n) : n;
    if (h.type() == PageType.DATA_PAGE_V2) { // V2 headers count what the levels hold: they must agree
      ParquetCorruptionException.validate(h.numNulls() == n - nonNull && h.numRows() == rows, location.file(),
          "%s: V2 page at offset %d says %d nulls in %d rows, its levels hold %d in %d", location.describe(),
          pageOffset, h.numNulls(), h.numRows(), n - nonNull, rows);
    }
    firstDataPage &= n == 0;
    pageRecords = rows;
    decoder = decoderFor(h.encoding());
    decoder.init(page, off, end - off, nonNull);
    pageEntries = n;
    entryIndex = 0;
  }

  /**
   * A record starts at repetition level 0: the chunk's first entry must be one, and so must every
   * V2 page's (V2 pages begin records; V1 pages of old writers may continue one). No level passes
   * the maximum. Consumers index by these levels, so a batch never carries others. Returns the
   * records that start in the page.
   */
  private int checkRepetitionLevels(PageHeaderInfo h, int n) throws IOException {
    byte[] r = reps;
    ParquetCorruptionException.validate(r[0] == 0 || !(firstDataPage || h.type() == PageType.DATA_PAGE_V2),
        location.file(), "%s: %s at offset %d starts with repetition level %d, not at a record", location.describe(),
        firstDataPage ? "the first data page" : "the V2 data page", pageOffset, r[0] & 0xFF);
    int over = 0;
    int records = 0;
    for (int i = 0; i < n; i++) {
      int v = r[i] & 0xFF;
      records += v == 0 ? 1 : 0;
      over |= maxRep - v;
    }
    ParquetCorruptionException.validate(over >= 0, location.file(),
        "%s: page at offset %d has a repetition level above the column's maximum %d", location.describe(),
        pageOffset, maxRep);
    return records;
  }

  private int readV1Levels(Encoding encoding, byte[] dst, int max, int off, int end, int n) throws IOException {
    int width = bitWidth(max);
    if (encoding == Encoding.RLE) {
      ParquetCorruptionException.validate(end - off >= 4, location.file(),
          "%s: page at offset %d ends before its level length", location.describe(), pageOffset);
      int length = page.getIntLE(off);
      ParquetCorruptionException.validate(length >= 0 && length <= end - off - 4, location.file(),
          "%s: page at offset %d: RLE levels length %d exceeds the page (%d bytes left)", location.describe(),
          pageOffset, length, end - off - 4);
      levelDecoder.init(page, off + 4, length, width);
      levelDecoder.readLevels(dst, 0, n);
      return off + 4 + length;
    }
    if (encoding == Encoding.BIT_PACKED) {
      LegacyBitPackedLevels.decode(page, off, n, width, dst);
      return off + LegacyBitPackedLevels.byteLength(n, width);
    }
    throw new ParquetCorruptionException(location.file(), location.describe() + ": page at offset " + pageOffset
        + " encodes levels as " + encoding + "; levels are RLE or BIT_PACKED");
  }

  private ValuesDecoder decoderFor(Encoding encoding) throws IOException {
    ParquetCorruptionException.validate(encoding != null, location.file(), "%s: page at offset %d has no encoding",
        location.describe(), pageOffset);
    ValuesDecoder d = decoders.get(encoding);
    if (d == null) {
      try {
        d = Decoders.create(encoding, column.physicalType(), column.typeLength(), dictionary);
      } catch (UnsupportedOperationException e) {
        throw new UnsupportedOperationException("[" + location.file() + "] " + location.describe() + ": "
            + e.getMessage(), e);
      }
      decoders.put(encoding, d);
    }
    return d;
  }

  private static int bitWidth(int max) {
    return 32 - Integer.numberOfLeadingZeros(max);
  }

  private byte[] scratch(int n) {
    if (scratch.length < n) {
      scratch = new byte[Math.max(n, Math.min(1 << 20, scratch.length * 2))];
    }
    return scratch;
  }

  private ByteBuf ensure(ByteBuf buf, int bytes) {
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

  private void releasePage() {
    if (page != null) {
      decompressor.recycle(page);
      page = null;
    }
    pageEntries = 0;
    entryIndex = 0;
  }

  /** Flushes this chunk's timings into the scan's metrics and releases every buffer. */
  @Override
  public void close() {
    try {
      pages.close();
    } finally {
      releasePage();
      decompressor.close();
      if (dictionary != null) {
        dictionary.close();
        dictionary = null;
      }
      sink.close();
      carry.close();
      for (ByteBuf b : new ByteBuf[] {validity, repOut, defOut}) {
        if (b != null) {
          b.release();
        }
      }
      validity = repOut = defOut = null;
      metrics.addPageReaderWait(waitNanos);
      metrics.addDecompress(decompressNanos, bytesDecompressed);
      metrics.addDecode(decodeNanos);
      for (ChunkInput input : inputs) {
        metrics.addDiskRead(input.readNanos(), input.bytesRead(), input.readCalls());
      }
    }
  }
}
