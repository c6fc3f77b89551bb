package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.filter.EqualityValues;
import io.turboparquet.filter.Filter;
import io.turboparquet.filter.Geospatial;
import io.turboparquet.filter.Predicate;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.EncodingStats;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.GeospatialStatistics;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.io.DirectBufInputStream;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.EncryptedPages;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageDecompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Whether a row group can hold no row that matches a filter, by what its dictionaries and bloom filters
 * show about equalities ({@code =} and {@code IN} leaves): the one place that decides it. Min/max
 * statistics are not consulted (the engine does that).
 *
 * <p>A leaf {@code column = v} or {@code column IN (v1, ...)} rules its row group out when the column
 * chunk's bloom filter ({@link ScanOptions.Pruning#bloomFilterPruning}) holds none of the values' hashes, or
 * when every data page of the chunk is dictionary-encoded ({@link ScanOptions.Pruning#dictionaryPruning}) and
 * the dictionary holds none of the values. The values are compared in their stored form
 * ({@link EqualityValues}, which also says where they cannot be listed). Every data page is
 * dictionary-encoded when the chunk's encoding stats say so; without encoding stats only by
 * parquet-java's rule for old files (DictionaryFilter): the encodings list PLAIN_DICTIONARY and
 * nothing else but the level encodings RLE and BIT_PACKED. A leaf that cannot be decided may match; an
 * AND is ruled out when any term is, an OR when every term is. The bloom filter goes first (usually
 * fewer bytes); the dictionary, exact, when the bloom filter lets a value through or is absent.
 *
 * <p>What is read: of a dictionary, only the page at the chunk's start (its header through a window
 * that stops at the chunk's end, its stored bytes within the chunk, decompressed within the
 * options' {@code maxPageBytes} and the codec's expansion bound, as the page readers check; in an
 * encrypted chunk, header and page decrypted as the page readers decrypt them); of a
 * bloom filter, its header and the bitset's blocks the values fall in (up to 64 KiB at once, which
 * holds all of most filters; {@link ChunkBloomFilter}). Each is read once per row group whatever
 * the number of leaves on its column; every buffer is released before {@link #prunes} returns.
 *
 * <p>Errors. What the format or this reader does not cover is "may match", and the scan goes on as
 * without pruning: a bloom filter of an algorithm, hash or compression other than split-block /
 * xxHash / uncompressed (a newer writer's), or larger than
 * {@link ChunkBloomFilter#MAX_BLOOM_FILTER_BYTES} (the largest parquet-java writes); a codec this
 * reader does not know or support; a chunk that does not start with a dictionary page, or whose
 * dictionary page runs past the chunk's end (the page readers report that, if the scan reads the
 * chunk). Everything else a file claims that cannot be true is a
 * {@link ParquetCorruptionException} naming file, row group and column, as when the pages are read:
 * a bloom filter outside the file or longer than its stated length, a header that does not decode,
 * a bitset size that is not a power of two of at least 32 bytes, a dictionary page header that does
 * not decode, a size beyond {@code maxPageBytes}, a page that does not
 * decompress, a dictionary whose entries do not fit its page, an encrypted module that does not
 * decrypt. An encrypted chunk whose key is unavailable fails, naming its column, as when its bloom
 * filter or pages are read. Ignoring such damage would hide it
 * only while the filter column is not read, and could trust bits that are garbage.
 */
public final class RowGroupPruning implements AutoCloseable {
  private static final int BY_DICTIONARY = 1;
  private static final int BY_BLOOM_FILTER = 2;
  private static final int BY_GEOSPATIAL_STATISTICS = 4;

  private final ScanContext context;
  private final FileMetadata meta;
  private final Path path;
  private final RowGroupMeta rowGroup;
  private FSDataInputStream in;
  /** Per leaf: its bloom filter, or null when it has none this reader can use. */
  private final Map<Integer, ChunkBloomFilter> blooms = new HashMap<>();
  /** Per leaf: its dictionary, or null when it has none this reader can use. */
  private final Map<Integer, Dictionary> dictionaries = new HashMap<>();
  private long readNanos;
  private long bytesRead;
  private long readCalls;

  /** Thrown when a dictionary larger than {@link #dictionaryLimit} would decide: decide at the row group's turn. */
  private static final class Deferred extends Exception {
    Deferred() {
      super(null, null, false, false);
    }
  }

  /** Largest dictionary page read now ({@code maxPageBytes} applies too). */
  private final long dictionaryLimit;

  private RowGroupPruning(ScanContext context, FileMetadata meta, Path path, int rowGroup, long dictionaryLimit) {
    this.dictionaryLimit = dictionaryLimit;
    this.context = context;
    this.meta = meta;
    this.path = path;
    this.rowGroup = meta.rowGroups().get(rowGroup);
  }

  /**
   * True when no row of row group {@code rowGroup} can match {@code filter} (null: false), as the
   * options allow it to be decided; counts the decision and the bytes read for it in the scan's
   * metrics.
   */
  public static boolean prunes(ScanContext context, FileMetadata meta, Path path, int rowGroup, Filter filter)
      throws IOException {
    return prunes(context, meta, path, rowGroup, filter, Long.MAX_VALUE);
  }

  /**
   * {@link #prunes}, decided ahead of the row group's turn (on the scan pool, up to
   * {@link RowGroupPipeline#MAX_PREFETCH_DEPTH} + 1 row groups at once): null when a dictionary page
   * larger than {@link #aheadDictionaryBytes} (stored or decompressed) would have to be read to
   * decide, so that those ahead hold at most half the memory budget in dictionaries; the row group's
   * own turn decides then. A row group left undecided is not counted as pruned or kept (the bytes
   * read to find out are).
   */
  static Boolean prunesAhead(ScanContext context, FileMetadata meta, Path path, int rowGroup, Filter filter)
      throws IOException {
    return prunes(context, meta, path, rowGroup, filter, aheadDictionaryBytes(context.options()));
  }

  /** The largest dictionary page read ahead of its row group's turn: about 7.5 MiB of the default 256 MiB budget. */
  static long aheadDictionaryBytes(ScanOptions options) {
    return options.io().memoryBudget() / (2L * (RowGroupPipeline.MAX_PREFETCH_DEPTH + 1));
  }

  private static Boolean prunes(ScanContext context, FileMetadata meta, Path path, int rowGroup, Filter filter,
      long dictionaryLimit) throws IOException {
    ScanOptions options = context.options();
    if (filter == null) {
      return false;
    }
    try (RowGroupPruning pruning = new RowGroupPruning(context, meta, path, rowGroup, dictionaryLimit)) {
      int by = pruning.evaluate(filter.root());
      if (by != 0) {
        context.metrics().addRowGroupPruned(pruning.rowGroup.numRows(), (by & BY_DICTIONARY) != 0,
            (by & BY_BLOOM_FILTER) != 0, (by & BY_GEOSPATIAL_STATISTICS) != 0);
      }
      return by != 0;
    } catch (Deferred e) {
      return null;
    }
  }

  /** 0 when a row may match; else how it was ruled out (BY_* bits). */
  private int evaluate(Filter.Node node) throws IOException, Deferred {
    if (node instanceof Filter.All all) {
      for (Filter.Node term : all.terms()) {
        int by = evaluate(term);
        if (by != 0) {
          return by;
        }
      }
      return 0;
    }
    if (node instanceof Filter.Any any) {
      int by = 0;
      for (Filter.Node term : any.terms()) {
        int termBy = evaluate(term);
        if (termBy == 0) {
          return 0;
        }
        by |= termBy;
      }
      return by;
    }
    return leaf((Filter.Leaf) node);
  }

  private int leaf(Filter.Leaf leaf) throws IOException, Deferred {
    int index = leaf.column().index();
    if (leaf.kind() == Filter.Kind.INTERSECTS) {
      GeospatialStatistics stats = rowGroup.column(index).geospatial();
      return stats != null && stats.bbox() != null
          && !Geospatial.mayIntersect((Predicate.Intersects) leaf.values().get(0), stats.bbox(), leaf.column())
          ? BY_GEOSPATIAL_STATISTICS : 0;
    }
    List<byte[]> values = EqualityValues.plainEncoded(leaf);
    if (values == null) {
      return 0;
    }
    ColumnChunkMeta chunk = rowGroup.column(index);
    ScanOptions options = context.options();
    if (options.pruning().bloomFilterPruning() && chunk.bloomFilter() != null) {
      if (!blooms.containsKey(index)) {
        blooms.put(index, ChunkBloomFilter.read(meta, rowGroup.index(), chunk, this::read));
      }
      ChunkBloomFilter bloom = blooms.get(index);
      if (bloom != null && !bloom.mayContainAny(values)) {
        return BY_BLOOM_FILTER;
      }
    }
    if (options.pruning().dictionaryPruning() && dataPagesAllDictionary(chunk)) {
      if (!dictionaries.containsKey(index)) {
        dictionaries.put(index, readDictionary(chunk));
      }
      Dictionary dictionary = dictionaries.get(index);
      if (dictionary != null && !containsAny(dictionary, values)) {
        return BY_DICTIONARY;
      }
    }
    return 0;
  }

  /**
   * Whether every data page of {@code chunk} is dictionary-encoded: by its encoding stats, else by
   * parquet-java's rule for files without them (PLAIN_DICTIONARY and only the level encodings RLE and
   * BIT_PACKED besides; RLE_DICTIONARY alone cannot tell a PLAIN fallback from the PLAIN dictionary page).
   */
  static boolean dataPagesAllDictionary(ColumnChunkMeta chunk) {
    EncodingStats stats = chunk.encodingStats();
    if (stats != null) {
      return stats.dataPagesAllDictionary();
    }
    if (chunk.unknownEncodings() || !chunk.encodings().contains(Encoding.PLAIN_DICTIONARY)) {
      return false;
    }
    for (Encoding e : chunk.encodings()) {
      if (e != Encoding.PLAIN_DICTIONARY && e != Encoding.RLE && e != Encoding.BIT_PACKED) {
        return false;
      }
    }
    return true;
  }

  // ---- dictionaries ----

  /**
   * The dictionary page at the chunk's start, decoded; null when there is none this reader can use.
   * An encrypted chunk's header and page are decrypted as the page readers decrypt them
   * ({@link EncryptedPages}: the column's key, the dictionary modules' AADs); its key must be known.
   */
  private Dictionary readDictionary(ColumnChunkMeta chunk) throws IOException, Deferred {
    if (chunk.codec() == null) {
      return null; // a codec from the future: the scan reports it if it reads the chunk
    }
    ChunkLocation location = new ChunkLocation(meta.file(), rowGroup.index(), chunk);
    long start = chunk.startOffset();
    long end = start + chunk.totalCompressedSize(); // the footer checked it lies in the file
    ScanOptions options = context.options();
    PageHeaderDecoder headers = new PageHeaderDecoder(meta.file());
    EncryptedPages encrypted = EncryptedPages.of(location, context.buffers(), headers);
    DirectBufInputStream input = new DirectBufInputStream(stream(), meta.file(), meta.fileLength(), start,
        chunk.totalCompressedSize(), context.buffers());
    try {
      PageHeaderInfo header = encrypted == null ? headers.read(input, start, location.describe())
          : encrypted.header(input, start, 0);
      if (header.type() != PageType.DICTIONARY_PAGE) {
        return null; // the data pages decide whether the chunk is readable
      }
      if (header.compressedSize() > end - input.position()) {
        return null; // past the chunk's end: the scan reports it, if it reads the chunk
      }
      if (Math.max(header.compressedSize(), (long) header.uncompressedSize()) > dictionaryLimit) {
        throw new Deferred();
      }
      Encoding encoding = header.encoding();
      ParquetCorruptionException.validate(encoding == Encoding.PLAIN || encoding == Encoding.PLAIN_DICTIONARY,
          location.context(), "dictionary page at offset %d uses %s; only PLAIN dictionaries exist", start, encoding);
      Page page = encrypted == null ? new Page(header, input.getNext(header.compressedSize()), start)
          : encrypted.page(input, header, start, 0, options.limits().maxPageBytes(), -1, -1);
      PageDecompressor decompressor = new PageDecompressor(location, context.buffers(),
          options.decode().verifyChecksums(), options.limits().maxPageBytes());
      try {
        ByteBuf bytes = decompressor.decompress(page);
        try {
          return Dictionary.read(bytes, bytes.readerIndex(), header.uncompressedSize(), header.numValues(),
              chunk.column().physicalType(), chunk.column().typeLength(), context.buffers());
        } catch (RuntimeException e) {
          throw location.corruption(start, "cannot read the dictionary page", e);
        } finally {
          decompressor.recycle(bytes);
        }
      } catch (UnsupportedOperationException e) {
        return null; // a codec this reader does not support (LZO)
      } finally {
        page.body().release();
        decompressor.close();
      }
    } finally {
      readNanos += input.readNanos();
      bytesRead += input.bytesRead();
      readCalls += input.readCalls();
      context.metrics().addDictionaryPruningRead(input.bytesRead());
      input.close();
      if (encrypted != null) {
        encrypted.close();
      }
    }
  }

  /** Whether an entry of {@code dictionary} is one of {@code values} (stored forms). */
  private static boolean containsAny(Dictionary dictionary, List<byte[]> values) {
    if (values.isEmpty()) {
      return false;
    }
    Set<ByteBuffer> wanted = new HashSet<>();
    for (byte[] v : values) {
      wanted.add(ByteBuffer.wrap(v));
    }
    ByteBuf entries = dictionary.values();
    ByteBuf offsets = dictionary.offsets();
    int width = dictionary.width();
    for (int i = 0; i < dictionary.size(); i++) {
      int from = offsets == null ? i * width : offsets.getIntLE(4 * i);
      int to = offsets == null ? from + width : offsets.getIntLE(4 * i + 4);
      if (wanted.contains(entries.nioBuffer(from, to - from))) {
        return true;
      }
    }
    return false;
  }

  // ---- reads ----

  private FSDataInputStream stream() throws IOException {
    if (in == null) {
      in = FileOpener.open(context.fileSystem(), path, meta.fileLength(), false);
    }
    return in;
  }

  /** {@code length} bytes at {@code offset} (the caller checked they are in the file), counted as bloom filter bytes. */
  private byte[] read(long offset, int length) throws IOException {
    byte[] out = new byte[length];
    long t0 = System.nanoTime();
    stream().readFully(offset, out, 0, length);
    readNanos += System.nanoTime() - t0;
    bytesRead += length;
    readCalls++;
    context.metrics().addBloomFilterRead(length);
    return out;
  }

  @Override
  public void close() {
    for (Dictionary d : dictionaries.values()) {
      if (d != null) {
        d.close();
      }
    }
    dictionaries.clear();
    context.metrics().addDiskRead(readNanos, bytesRead, readCalls);
    if (in != null) {
      context.metrics().addStoreReads(StoreReads.of(in));
      try {
        in.close();
      } catch (IOException | RuntimeException e) {
        // a read-only stream: nothing is lost
      }
      in = null;
    }
  }
}
