package io.turboparquet.scan;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.PageSource;
import java.io.IOException;
import java.util.List;

/**
 * Decodes one column chunk batch by batch: takes pages from its {@link PageSource}, decompresses
 * them, decodes levels for the whole page and values for the rows a batch asks for. Flat columns
 * get one value slot per row (plus validity when optional); nested columns get levels per entry and
 * dense values. Runs on whichever thread calls {@link #readBatch(long, int, long)}, one call at a time.
 *
 * <p>Variable-width and nested columns end a batch early, at a record boundary, when the next
 * records' values could pass the batch's byte limit (asking the decoder for an upper bound before
 * decoding); at least one record is always read. Flat fixed-width columns never check: the scanner
 * caps their rows instead. When another column of the batch ended earlier, {@link #keep(int)} moves
 * the rows past it to the start of the next batch (carry-over).
 *
 * <p>The work is split: {@link PageCursor} (pages, dictionary, levels and their checks),
 * {@link FlatColumnReader} or {@link NestedColumnReader} (the read loops and seeks, on a
 * {@link BatchReader} base that keeps the carry-over) and {@link BatchBudget} (the byte limit).
 * This class is their face to the scanner: it times the decoding and names the file and page in
 * any error.
 */
final class ColumnChunkReader implements AutoCloseable {

  private final ChunkLocation location;
  private final ColumnDescriptor column;
  /** Where the pages come from (several segments when page-index skipping leaves gaps), for their read counters. */
  private final List<ChunkInput> inputs;
  private final ScanMetrics metrics;
  private final PageCursor cursor;
  private final BatchReader reader;
  private long decodeNanos;

  ColumnChunkReader(ChunkLocation location, PageSource pages, List<ChunkInput> inputs, BufferSource source,
      ScanOptions options, ScanMetrics metrics) {
    this.location = location;
    this.column = location.chunk().column();
    if (column.maxDefinitionLevel() > 255 || column.maxRepetitionLevel() > 255) {
      throw location.context().unsupported("nested more than 255 levels deep");
    }
    this.inputs = inputs;
    this.metrics = metrics;
    this.cursor = new PageCursor(location, pages, source, options, metrics);
    this.reader = BatchReader.create(location, cursor, source);
  }

  ColumnDescriptor column() {
    return column;
  }

  /**
   * Decodes the next {@code rows} rows from row {@code firstRow} of the row group on: fewer at the
   * end of the chunk, or when the values of a variable-width or nested column would pass
   * {@code byteLimit} bytes (never fewer than one record). Rows carried over from the last batch
   * come first. A {@code firstRow} past where the last batch ended skips the rows between (flat
   * columns, with nothing carried over: page-index skipping). The result stays valid until the next call.
   */
  ColumnBatch readBatch(long firstRow, int rows, long byteLimit) throws IOException {
    long t0 = System.nanoTime();
    long waitBefore = cursor.waitNanos();
    long decompressBefore = cursor.decompressNanos();
    try {
      return reader.readBatch(firstRow, rows, byteLimit);
    } catch (UnsupportedOperationException e) {
      throw e;
    } catch (RuntimeException e) { // no JDK exception leaves the core without the file and page
      throw location.corruption(cursor.pageOffset(), "cannot decode", e);
    } finally {
      long spent = System.nanoTime() - t0 - (cursor.waitNanos() - waitBefore)
          - (cursor.decompressNanos() - decompressBefore);
      decodeNanos += spent;
    }
  }

  /** Keeps the dictionary ids of the values read from here on, for a filter to judge rows by ({@link BatchFilter}). */
  void keepDictionaryIds() {
    reader.sink.keepDictionaryIds();
  }

  /** The row of the row group the next batch starts at (rows kept for it aside). */
  long rowPosition() {
    return reader.rowPosition();
  }

  /**
   * Whether the rows up to {@code row} can be passed over undecoded: a flat column whose rows kept
   * from the last batch ({@link #keep}), if any, all lie before it.
   */
  boolean canSkipTo(long row) {
    return reader.canSkipTo(row);
  }

  /** Drops the rows kept from the last batch, unread (the scan skips them; see {@link #canSkipTo}). */
  void dropCarriedRows() {
    reader.dropCarriedRows();
  }

  /**
   * Ends the last batch after its first {@code rows} rows (another column of the batch ended
   * there) and keeps the rest for the start of the next batch. Called by the scanner between
   * batches, before the batch is handed on.
   */
  void keep(int rows) {
    reader.keep(rows);
  }

  /**
   * After the row group's last row: the chunk must hold no more values, or the row group's row
   * count and the chunk's pages disagree and the rows read so far cannot be trusted.
   */
  void checkExhausted() throws IOException {
    cursor.checkExhausted();
  }

  /** Flushes this chunk's timings into the scan's metrics and releases every buffer. */
  @Override
  public void close() {
    try {
      cursor.close();
    } finally {
      reader.close();
      metrics.addPageReaderWait(cursor.waitNanos());
      metrics.addDecompress(cursor.decompressNanos(), cursor.bytesDecompressed());
      metrics.addDecode(decodeNanos);
      for (ChunkInput input : inputs) {
        metrics.addDiskRead(input.readNanos(), input.bytesRead(), input.readCalls());
      }
    }
  }
}
