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
 * dense values. Runs on whichever thread calls {@link #readBatch(int)}, one call at a time.
 */
final class ColumnChunkReader implements AutoCloseable {
  /** Hard cap on level entries per page, so a hostile header cannot make us allocate gigabytes. */
  private static final int MAX_PAGE_ENTRIES = 1 << 26;

  private final ChunkLocation location;
  private final ColumnDescriptor column;
  private final PageSource pages;
  private final ChunkInput input;
  private final PageDecompressor decompressor;
  private final BufferSource source;
  private final ScanMetrics metrics;
  private final int maxDef;
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
  private int[] defs = new int[0];
  private int[] reps = new int[0];
  private byte[] scratch = new byte[0];
  private ValuesDecoder decoder;
  private ByteBuf validity;
  private ByteBuf repOut;
  private ByteBuf defOut;
  private long waitNanos;
  private long decompressNanos;
  private long decodeNanos;
  private long bytesDecompressed;

  ColumnChunkReader(ChunkLocation location, PageSource pages, ChunkInput input, BufferSource source,
      ScanOptions options, ScanMetrics metrics) {
    this.location = location;
    this.column = location.chunk().column();
    if (column.maxDefinitionLevel() > 255 || column.maxRepetitionLevel() > 255) {
      throw new UnsupportedOperationException("[" + location.file() + "] column " + column.dottedPath()
          + " is nested more than 255 levels deep");
    }
    this.pages = pages;
    this.input = input;
    this.decompressor = new PageDecompressor(location, source, options.verifyChecksums(), options.maxPageBytes());
    this.source = source;
    this.metrics = metrics;
    this.maxDef = column.maxDefinitionLevel();
    this.maxRep = column.maxRepetitionLevel();
    this.sink = new ValueSink(source, column.valueWidth() > 0 ? column.valueWidth() : ValueSink.VARIABLE);
    this.batch = new ColumnBatch(column, sink);
  }

  ColumnDescriptor column() {
    return column;
  }

  /**
   * Decodes the next {@code rows} rows (fewer only at the end of the chunk). The result stays valid
   * until the next call.
   */
  ColumnBatch readBatch(int rows) throws IOException {
    long t0 = System.nanoTime();
    long waitBefore = waitNanos;
    long decompressBefore = decompressNanos;
    try {
      sink.reset();
      if (maxRep == 0) {
        readFlat(rows);
      } else {
        readNested(rows);
      }
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

  private void readFlat(int rows) throws IOException {
    if (!sink.isVariableWidth()) {
      sink.reserve(rows); // one allocation of the batch's size, also after detachValues()
    }
    int done = 0;
    int nonNull = 0;
    while (done < rows) {
      if (entryIndex == pageEntries && !nextDataPage()) {
        break;
      }
      int k = Math.min(rows - done, pageEntries - entryIndex);
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

  /** Rows {@code [at, at + k)} of an optional flat column from the current page; returns defined count. */
  private int readOptionalRun(int at, int k) {
    byte[] valid = scratch(k);
    int defined = 0;
    int[] levels = defs;
    int from = entryIndex;
    for (int i = 0; i < k; i++) {
      int v = levels[from + i] == maxDef ? 1 : 0;
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
    int rowsDone = 0;
    int entries = 0;
    int nonNull = 0;
    while (true) {
      if (entryIndex == pageEntries && !nextDataPage()) {
        break;
      }
      int start = entryIndex;
      int i = start;
      int[] r = reps;
      while (i < pageEntries) {
        if (r[i] == 0) {
          if (rowsDone == rows) {
            break;
          }
          rowsDone++;
        }
        i++;
      }
      int k = i - start;
      if (k > 0) {
        nonNull += copyLevels(start, k, entries);
        entries += k;
        entryIndex = i;
      }
      if (i < pageEntries) {
        break; // the next row starts here and the batch is full
      }
    }
    batch.set(rowsDone, entries, nonNull, null, repOut, defOut);
  }

  /** Copies levels {@code [start, start + k)} of the page to the batch and decodes their values. */
  private int copyLevels(int start, int k, int at) {
    byte[] bytes = scratch(k);
    for (int j = 0; j < k; j++) {
      bytes[j] = (byte) reps[start + j];
    }
    repOut = ensure(repOut, at + k);
    repOut.setBytes(at, bytes, 0, k);
    int defined = 0;
    for (int j = 0; j < k; j++) {
      int d = defs[start + j];
      bytes[j] = (byte) d;
      if (d == maxDef) {
        defined++;
      }
    }
    defOut = ensure(defOut, at + k);
    defOut.setBytes(at, bytes, 0, k);
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
        page = bytes;
        startDataPage(h);
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
    ParquetCorruptionException.validate(n <= MAX_PAGE_ENTRIES, location.file(),
        "%s: page at offset %d claims %d values, more than the limit of %d", location.describe(), pageOffset, n,
        MAX_PAGE_ENTRIES);
    int off = page.readerIndex();
    int end = off + h.uncompressedSize();
    if (maxRep > 0 && reps.length < n) {
      reps = new int[Math.max(n, reps.length * 2)];
    }
    if (maxDef > 0 && defs.length < n) {
      defs = new int[Math.max(n, defs.length * 2)];
    }
    if (h.type() == PageType.DATA_PAGE_V2) {
      int repLen = h.repetitionLevelsByteLength();
      int defLen = h.definitionLevelsByteLength();
      if (maxRep > 0) {
        levelDecoder.init(page, off, repLen, bitWidth(maxRep));
        levelDecoder.readInts(reps, 0, n);
      }
      if (maxDef > 0) {
        levelDecoder.init(page, off + repLen, defLen, bitWidth(maxDef));
        levelDecoder.readInts(defs, 0, n);
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
      int[] d = defs;
      int over = 0; // negative once a level passes the maximum
      for (int i = 0; i < n; i++) {
        int v = d[i];
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
    int[] r = reps;
    ParquetCorruptionException.validate(r[0] == 0 || !(firstDataPage || h.type() == PageType.DATA_PAGE_V2),
        location.file(), "%s: %s at offset %d starts with repetition level %d, not at a record", location.describe(),
        firstDataPage ? "the first data page" : "the V2 data page", pageOffset, r[0]);
    int over = 0;
    int records = 0;
    for (int i = 0; i < n; i++) {
      int v = r[i];
      records += v == 0 ? 1 : 0;
      over |= maxRep - v;
    }
    ParquetCorruptionException.validate(over >= 0, location.file(),
        "%s: page at offset %d has a repetition level above the column's maximum %d", location.describe(),
        pageOffset, maxRep);
    return records;
  }

  private int readV1Levels(Encoding encoding, int[] dst, int max, int off, int end, int n) throws IOException {
    int width = bitWidth(max);
    if (encoding == Encoding.RLE) {
      ParquetCorruptionException.validate(end - off >= 4, location.file(),
          "%s: page at offset %d ends before its level length", location.describe(), pageOffset);
      int length = page.getIntLE(off);
      ParquetCorruptionException.validate(length >= 0 && length <= end - off - 4, location.file(),
          "%s: page at offset %d: RLE levels length %d exceeds the page (%d bytes left)", location.describe(),
          pageOffset, length, end - off - 4);
      levelDecoder.init(page, off + 4, length, width);
      levelDecoder.readInts(dst, 0, n);
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
      for (ByteBuf b : new ByteBuf[] {validity, repOut, defOut}) {
        if (b != null) {
          b.release();
        }
      }
      validity = repOut = defOut = null;
      metrics.addPageReaderWait(waitNanos);
      metrics.addDecompress(decompressNanos, bytesDecompressed);
      metrics.addDecode(decodeNanos);
      metrics.addDiskRead(input.readNanos(), input.bytesRead(), input.readCalls());
    }
  }
}
