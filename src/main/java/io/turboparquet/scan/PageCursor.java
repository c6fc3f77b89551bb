package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.Decoders;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.decode.LegacyBitPackedLevels;
import io.turboparquet.decode.RleBitPackedHybridDecoder;
import io.turboparquet.decode.ValuesDecoder;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageDecompressor;
import io.turboparquet.page.PageSource;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * A column chunk's current data page: takes pages from the {@link PageSource}, decompresses them,
 * loads dictionary pages on the way, decodes and checks the page's levels as a whole and sets up
 * its values decoder. Knows the page's rows in the row group (from an offset index or by counting
 * on) and which entry comes next; the flat and nested readers move that position, the cursor
 * owns the rest. Times its waits and decompression for the reader's metrics.
 */
final class PageCursor implements AutoCloseable {
  private final ChunkLocation location;
  private final ColumnDescriptor column;
  private final PageSource pages;
  private final PageDecompressor decompressor;
  private final BufferSource source;
  private final ScanMetrics metrics;
  private final int maxDef;
  private final int maxRep;
  /**
   * {@link ScanOptions.Limits#maxPageEntries()}: checked before a page's levels are decoded into
   * arrays of that size.
   */
  private final int maxPageEntries;
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
  private ValuesDecoder decoder;
  private long waitNanos;
  private long decompressNanos;
  private long bytesDecompressed;
  /** Counts data pages, so what is derived from a page's levels can tell it is still current. */
  private long pageSerial;
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

  PageCursor(ChunkLocation location, PageSource pages, BufferSource source, ScanOptions options, ScanMetrics metrics) {
    this.location = location;
    this.column = location.chunk().column();
    this.pages = pages;
    this.decompressor = new PageDecompressor(location, source, options.decode().verifyChecksums(),
        options.limits().maxPageBytes());
    this.source = source;
    this.metrics = metrics;
    this.maxDef = column.maxDefinitionLevel();
    this.maxRep = column.maxRepetitionLevel();
    this.maxPageEntries = options.limits().maxPageEntries();
  }

  /** File offset of the current (or last) page's header, for error messages. */
  long pageOffset() {
    return pageOffset;
  }

  /** Level entries of the current page; 0 when there is none. */
  int pageEntries() {
    return pageEntries;
  }

  /** The page's next entry to read. */
  int entryIndex() {
    return entryIndex;
  }

  /** Definition levels of the current page's entries (optional columns; valid up to {@link #pageEntries()}). */
  byte[] defs() {
    return defs;
  }

  /** Repetition levels of the current page's entries (nested columns). */
  byte[] reps() {
    return reps;
  }

  /** The current page's values decoder, positioned at the value of the next defined entry. */
  ValuesDecoder decoder() {
    return decoder;
  }

  long pageSerial() {
    return pageSerial;
  }

  long pageFirstRow() {
    return pageFirstRow;
  }

  long pageEndRow() {
    return pageEndRow;
  }

  /** Whether the current page's rows come from an offset index (so the next page starts a record). */
  boolean indexedPages() {
    return indexedPages;
  }

  long waitNanos() {
    return waitNanos;
  }

  long decompressNanos() {
    return decompressNanos;
  }

  long bytesDecompressed() {
    return bytesDecompressed;
  }

  /** The caller has read the next {@code entries} entries' values from {@link #decoder()}. */
  void advance(int entries) {
    entryIndex += entries;
  }

  /** Passes over the page's entries from the current one to {@code end}: their defined values are skipped by the decoder. */
  void skipEntriesTo(int end) {
    int defined = maxDef == 0 ? end - entryIndex : definedIn(entryIndex, end);
    if (defined > 0) {
      decoder.skip(defined);
    }
    entryIndex = end;
  }

  /** Defined values among the page's entries {@code [from, to)}. */
  int definedIn(int from, int to) {
    int defined = 0;
    byte[] d = defs;
    for (int j = from; j < to; j++) {
      defined += (d[j] & 0xFF) == maxDef ? 1 : 0;
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
  boolean nextDataPage() throws IOException {
    return nextDataPage(-1);
  }

  /** {@link #nextDataPage()}, passing over undecoded the pages of a flat column that end by row {@code skipBefore}. */
  boolean nextDataPage(long skipBefore) throws IOException {
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
    ParquetCorruptionException.validate(e == Encoding.PLAIN || e == Encoding.PLAIN_DICTIONARY, location.context(),
        "dictionary page at offset %d uses %s; only PLAIN dictionaries exist", pageOffset, e);
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
    ParquetCorruptionException.validate(n <= maxPageEntries, location.context(),
        "page at offset %d claims %d values, more than the limit of %d (option maxPageEntries)", pageOffset, n,
        maxPageEntries);
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
      ParquetCorruptionException.validate(over >= 0, location.context(),
          "page at offset %d has a definition level above the column's maximum %d", pageOffset, maxDef);
    }
    int rows = maxRep > 0 && n > 0 ? checkRepetitionLevels(h, n) : n;
    if (h.type() == PageType.DATA_PAGE_V2) { // V2 headers count what the levels hold: they must agree
      ParquetCorruptionException.validate(h.numNulls() == n - nonNull && h.numRows() == rows, location.context(),
          "V2 page at offset %d says %d nulls in %d rows, its levels hold %d in %d", pageOffset, h.numNulls(),
          h.numRows(), n - nonNull, rows);
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
        location.context(), "%s at offset %d starts with repetition level %d, not at a record",
        firstDataPage ? "the first data page" : "the V2 data page", pageOffset, r[0] & 0xFF);
    int over = 0;
    int records = 0;
    for (int i = 0; i < n; i++) {
      int v = r[i] & 0xFF;
      records += v == 0 ? 1 : 0;
      over |= maxRep - v;
    }
    ParquetCorruptionException.validate(over >= 0, location.context(),
        "page at offset %d has a repetition level above the column's maximum %d", pageOffset, maxRep);
    return records;
  }

  private int readV1Levels(Encoding encoding, byte[] dst, int max, int off, int end, int n) throws IOException {
    int width = bitWidth(max);
    if (encoding == Encoding.RLE) {
      ParquetCorruptionException.validate(end - off >= 4, location.context(),
          "page at offset %d ends before its level length", pageOffset);
      int length = page.getIntLE(off);
      if (length < 0 || length > end - off - 4) {
        throw location.corruption(pageOffset, "RLE levels length " + length + " exceeds the page (" + (end - off - 4)
            + " bytes left)", null);
      }
      levelDecoder.init(page, off + 4, length, width);
      levelDecoder.readLevels(dst, 0, n);
      return off + 4 + length;
    }
    if (encoding == Encoding.BIT_PACKED) {
      LegacyBitPackedLevels.decode(page, off, n, width, dst);
      return off + LegacyBitPackedLevels.byteLength(n, width);
    }
    throw new ParquetCorruptionException(location.context(), "page at offset " + pageOffset + " encodes levels as "
        + encoding + "; levels are RLE or BIT_PACKED");
  }

  private ValuesDecoder decoderFor(Encoding encoding) throws IOException {
    ParquetCorruptionException.validate(encoding != null, location.context(), "page at offset %d has no encoding",
        pageOffset);
    ValuesDecoder d = decoders.get(encoding);
    if (d == null) {
      try {
        d = Decoders.create(encoding, column.physicalType(), column.typeLength(), dictionary);
      } catch (UnsupportedOperationException e) {
        throw location.context().unsupported(e.getMessage(), e);
      }
      decoders.put(encoding, d);
    }
    return d;
  }

  private static int bitWidth(int max) {
    return 32 - Integer.numberOfLeadingZeros(max);
  }

  private void releasePage() {
    if (page != null) {
      decompressor.recycle(page);
      page = null;
    }
    pageEntries = 0;
    entryIndex = 0;
  }

  /** Stops the page source and releases the current page, the decompressor's buffers and the dictionary. */
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
    }
  }
}
