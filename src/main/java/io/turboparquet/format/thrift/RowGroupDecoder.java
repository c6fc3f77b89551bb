package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.I16;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;
import static io.turboparquet.format.thrift.ThriftCursor.listSize;
import static io.turboparquet.format.thrift.ThriftCursor.listType;

import io.turboparquet.format.BloomFilterLocation;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.EncodingStats;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * RowGroup, ColumnChunk and ColumnMetaData. Chunks outside the projection are skipped whole;
 * ColumnMetaData lands in scratch fields so a decoded chunk costs one model object (plus its
 * statistics when asked for, and its bloom filter's location when it has one; encoding lists and
 * encoding stats are shared between chunks that repeat them).
 */
final class RowGroupDecoder {
  private static final CompressionCodec[] CODECS = CompressionCodec.values();
  private static final int MAX_CACHED_ENCODING_LISTS = 64;
  private static final int MAX_CACHED_ENCODING_STATS = 64;

  private final ThriftCursor r;
  private final long fileLength;
  private final List<ColumnDescriptor> leaves;
  private final boolean[] projected;
  private final boolean[] statistics;
  private final SkipShapes shapes;

  // Files repeat a handful of encoding lists; one immutable list per distinct sequence.
  private long[] encodingKeys = new long[4];
  private List<?>[] encodingLists = new List<?>[4];
  private int encodingCount;
  // The same for encoding stats: one instance per distinct (data, dictionary) pair.
  private long[] statsKeys = new long[4];
  private EncodingStats[] statsValues = new EncodingStats[4];
  private int statsCount;

  // Scratch for the ColumnMetaData being decoded.
  private int rowGroup;
  private ColumnDescriptor column;
  private int codecId;
  private List<Encoding> encodings;
  private long numValues;
  private long totalUncompressed;
  private long totalCompressed;
  private long dataPageOffset;
  private long dictionaryPageOffset;
  private ColumnStatistics chunkStatistics;
  private EncodingStats encodingStats;
  private boolean unknownEncodings;
  private long bloomFilterOffset;
  private int bloomFilterLength;

  /** {@code projected} / {@code statistics}: one flag per leaf, or null for every leaf. */
  RowGroupDecoder(ThriftCursor r, long fileLength, List<ColumnDescriptor> leaves, boolean[] projected,
      boolean[] statistics) {
    this.r = r;
    this.fileLength = fileLength;
    this.leaves = leaves;
    this.projected = projected;
    this.statistics = statistics;
    // Only skipping uses shapes.
    this.shapes = projected == null ? null : new SkipShapes(r.maxStringLength(), leaves.size());
  }

  /** FileMetaData.row_groups, whose list header comes next. */
  List<RowGroupMeta> readList() throws ParquetCorruptionException {
    int n = r.readList("FileMetaData.row_groups", STRUCT);
    List<RowGroupMeta> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(rowGroup(i));
    }
    return out;
  }

  private RowGroupMeta rowGroup(int index) throws ParquetCorruptionException {
    List<ColumnChunkMeta> chunks = null;
    long totalByteSize = 0;
    long numRows = 0;
    boolean hasTotalByteSize = false;
    boolean hasNumRows = false;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> chunks = r.is(f, LIST) ? chunks(index) : chunks;
        case 2 -> {
          if (r.is(f, I64)) {
            totalByteSize = r.readI64();
            hasTotalByteSize = true;
          }
        }
        case 3 -> {
          if (r.is(f, I64)) {
            numRows = r.readI64();
            hasNumRows = true;
          }
        }
        default -> r.skip(fieldType(f));
      }
    }
    r.require(chunks != null, "RowGroup.columns (row group " + index + ")");
    r.require(hasTotalByteSize, "RowGroup.total_byte_size (row group " + index + ")");
    r.require(hasNumRows, "RowGroup.num_rows (row group " + index + ")");
    if (numRows < 0) {
      throw r.corrupt("row group " + index + ": RowGroup.num_rows is negative");
    }
    return new RowGroupMeta(index, numRows, totalByteSize, chunks);
  }

  private List<ColumnChunkMeta> chunks(int index) throws ParquetCorruptionException {
    int n = r.readList("RowGroup.columns", STRUCT);
    if (n != leaves.size()) {
      throw r.corrupt("row group " + index + " has " + n + " column chunks, the schema " + leaves.size() + " leaves");
    }
    ColumnChunkMeta[] out = new ColumnChunkMeta[n];
    for (int i = 0; i < n; ) {
      if (projected == null || projected[i]) {
        out[i] = chunk(index, leaves.get(i), statistics == null || statistics[i]);
        i++;
      } else {
        int from = i;
        while (i < n && !projected[i]) {
          i++;
        }
        r.skipChunks(shapes, from, i);
      }
    }
    return Arrays.asList(out);
  }

  private ColumnChunkMeta chunk(int index, ColumnDescriptor leaf, boolean withStatistics)
      throws ParquetCorruptionException {
    rowGroup = index;
    column = leaf;
    boolean hasMeta = false;
    boolean hasFileOffset = false;
    long offsetIndexOffset = -1;
    int offsetIndexLength = 0;
    long columnIndexOffset = -1;
    int columnIndexLength = 0;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 2 -> {
          if (r.is(f, I64)) {
            r.readI64(); // file_offset: deprecated, required on the wire
            hasFileOffset = true;
          }
        }
        case 3 -> {
          if (r.is(f, STRUCT)) {
            metaData(withStatistics);
            hasMeta = true;
          }
        }
        case 4 -> offsetIndexOffset = r.is(f, I64) ? r.readI64() : offsetIndexOffset;
        case 5 -> offsetIndexLength = r.is(f, I32) ? r.readI32() : offsetIndexLength;
        case 6 -> columnIndexOffset = r.is(f, I64) ? r.readI64() : columnIndexOffset;
        case 7 -> columnIndexLength = r.is(f, I32) ? r.readI32() : columnIndexLength;
        default -> r.skip(fieldType(f));
      }
    }
    if (!hasFileOffset) { // not r.require: the message would be built for every chunk
      throw r.corrupt(where() + "required field ColumnChunk.file_offset is missing");
    }
    if (!hasMeta) {
      throw r.corrupt(where() + "ColumnChunk.meta_data is missing (encrypted or external columns are not supported)");
    }
    return build(leaf, offsetIndexOffset, offsetIndexLength, columnIndexOffset, columnIndexLength);
  }

  private ColumnChunkMeta build(ColumnDescriptor leaf, long offsetIndexOffset, int offsetIndexLength,
      long columnIndexOffset, int columnIndexLength) {
    CompressionCodec codec = codecId >= 0 && codecId < CODECS.length ? CODECS[codecId] : null;
    // Checked where it is used (a scan's bloom filter pruning); a negative offset is no filter, as in parquet-java.
    BloomFilterLocation bloomFilter = bloomFilterOffset >= 0
        ? new BloomFilterLocation(bloomFilterOffset, bloomFilterLength) : null;
    return new ColumnChunkMeta(leaf, codec, encodings, numValues, totalCompressed, totalUncompressed,
        dataPageOffset, dictionaryPageOffset, codecId, chunkStatistics, offsetIndexOffset, offsetIndexLength,
        columnIndexOffset, columnIndexLength, encodingStats, unknownEncodings, bloomFilter);
  }

  private void metaData(boolean withStatistics) throws ParquetCorruptionException {
    // bit per required field: type, encodings, path_in_schema, codec, num_values, sizes, data_page_offset
    int seen = 0;
    encodings = null;
    dictionaryPageOffset = -1;
    chunkStatistics = null;
    encodingStats = null;
    bloomFilterOffset = -1;
    bloomFilterLength = 0;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> {
          if (r.is(f, I32)) {
            r.readI32(); // the schema's type is the one we use
            seen |= 1;
          }
        }
        case 2 -> {
          if (r.is(f, LIST)) {
            encodings = encodings();
            seen |= 2;
          }
        }
        case 3 -> {
          if (r.is(f, LIST)) {
            r.skip(LIST); // path_in_schema repeats the schema's path
            seen |= 4;
          }
        }
        case 4 -> {
          if (r.is(f, I32)) {
            codecId = r.readI32();
            seen |= 8;
          }
        }
        case 5 -> {
          if (r.is(f, I64)) {
            numValues = r.readI64();
            seen |= 16;
          }
        }
        case 6 -> {
          if (r.is(f, I64)) {
            totalUncompressed = r.readI64();
            seen |= 32;
          }
        }
        case 7 -> {
          if (r.is(f, I64)) {
            totalCompressed = r.readI64();
            seen |= 64;
          }
        }
        case 9 -> {
          if (r.is(f, I64)) {
            dataPageOffset = r.readI64();
            seen |= 128;
          }
        }
        case 11 -> dictionaryPageOffset = r.is(f, I64) ? r.readI64() : dictionaryPageOffset;
        case 12 -> {
          if (withStatistics && r.is(f, STRUCT)) {
            chunkStatistics = StatisticsDecoder.read(r);
          } else {
            r.skip(fieldType(f));
          }
        }
        case 13 -> encodingStats = r.is(f, LIST) ? encodingStats() : encodingStats;
        case 14 -> bloomFilterOffset = r.is(f, I64) ? r.readI64() : bloomFilterOffset;
        case 15 -> bloomFilterLength = r.is(f, I32) ? r.readI32() : bloomFilterLength;
        default -> r.skip(fieldType(f));
      }
    }
    checkMetaData(seen);
  }

  private void checkMetaData(int seen) throws ParquetCorruptionException {
    if (seen != 255) {
      String[] names = {"type", "encodings", "path_in_schema", "codec", "num_values", "total_uncompressed_size",
          "total_compressed_size", "data_page_offset"};
      int missing = Integer.numberOfTrailingZeros(~seen);
      throw r.corrupt(where() + "required field ColumnMetaData." + names[missing] + " is missing");
    }
    if (totalCompressed < 0) {
      throw r.corrupt(where() + "ColumnMetaData.total_compressed_size is negative");
    }
    if (totalUncompressed < 0) {
      throw r.corrupt(where() + "ColumnMetaData.total_uncompressed_size is negative");
    }
    if (numValues < 0) {
      throw r.corrupt(where() + "ColumnMetaData.num_values is negative");
    }
    if (dataPageOffset < 0 || dataPageOffset >= fileLength) {
      throw r.corrupt(where() + "ColumnMetaData.data_page_offset " + dataPageOffset + " is outside the file ("
          + fileLength + " bytes)");
    }
    // Some old writers set dictionary_page_offset to 0 when there is no dictionary.
    if (dictionaryPageOffset <= 0) {
      dictionaryPageOffset = -1;
    } else if (dictionaryPageOffset >= fileLength) {
      throw r.corrupt(where() + "ColumnMetaData.dictionary_page_offset " + dictionaryPageOffset
          + " is outside the file");
    }
  }

  /** ColumnMetaData.encodings; ids from the future are dropped (only fatal if a page uses them). */
  @SuppressWarnings("unchecked")
  private List<Encoding> encodings() throws ParquetCorruptionException {
    int list = r.readList("ColumnMetaData.encodings");
    int n = listSize(list);
    unknownEncodings = false;
    // Thrift's generated readers ignore the element type; some writers declare i16 (same varint).
    if (listType(list) != I32 && listType(list) != I16 && n > 0) {
      throw r.corrupt(where() + "ColumnMetaData.encodings is a list of wire type " + listType(list));
    }
    long key = 1; // a leading 1 bit keeps lists of different lengths apart
    boolean cacheable = n <= 15;
    Encoding[] known = null;
    int count = 0;
    for (int i = 0; i < n; i++) {
      Encoding e = ThriftEnums.encoding(r.readI32());
      if (e == null) {
        unknownEncodings = true;
        continue;
      }
      if (cacheable) {
        key = key << 4 | e.thriftId();
      } else {
        if (known == null) {
          known = new Encoding[n];
        }
        known[count++] = e;
      }
    }
    if (!cacheable) {
      return List.of(Arrays.copyOf(known == null ? new Encoding[0] : known, count));
    }
    for (int i = 0; i < encodingCount; i++) {
      if (encodingKeys[i] == key) {
        return (List<Encoding>) encodingLists[i];
      }
    }
    List<Encoding> built = fromKey(key);
    if (encodingCount == MAX_CACHED_ENCODING_LISTS) {
      return built; // a hostile footer must not make the lookup quadratic
    }
    if (encodingCount == encodingKeys.length) {
      encodingKeys = Arrays.copyOf(encodingKeys, encodingCount * 2);
      encodingLists = Arrays.copyOf(encodingLists, encodingCount * 2);
    }
    encodingKeys[encodingCount] = key;
    encodingLists[encodingCount++] = built;
    return built;
  }

  /**
   * ColumnMetaData.encoding_stats: which encodings the data pages and the dictionary page use. Page
   * types and encodings from the future count as {@link EncodingStats#UNKNOWN} data-page encodings.
   */
  private EncodingStats encodingStats() throws ParquetCorruptionException {
    int n = r.readList("ColumnMetaData.encoding_stats", STRUCT);
    int data = 0;
    int dictionary = 0;
    for (int i = 0; i < n; i++) {
      int pageType = -1;
      int encoding = -1;
      boolean hasCount = false;
      int last = 0;
      for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
        last = fieldId(f);
        switch (last) {
          case 1 -> pageType = r.is(f, I32) ? r.readI32() : pageType;
          case 2 -> encoding = r.is(f, I32) ? r.readI32() : encoding;
          case 3 -> {
            if (r.is(f, I32)) {
              r.readI32(); // the count: not kept
              hasCount = true;
            }
          }
          default -> r.skip(fieldType(f));
        }
      }
      if (pageType == -1 || encoding == -1 || !hasCount) {
        throw r.corrupt(where() + "required field PageEncodingStats."
            + (pageType == -1 ? "page_type" : encoding == -1 ? "encoding" : "count") + " is missing");
      }
      Encoding e = ThriftEnums.encoding(encoding);
      int bit = e == null ? EncodingStats.UNKNOWN : EncodingStats.bit(e);
      switch (pageType) {
        case 0, 3 -> data |= bit; // DATA_PAGE, DATA_PAGE_V2
        case 2 -> dictionary |= bit;
        case 1 -> { } // INDEX_PAGE
        default -> data |= EncodingStats.UNKNOWN; // a page type from the future may hold values
      }
    }
    long key = (long) data << 32 | dictionary & 0xffffffffL;
    for (int i = 0; i < statsCount; i++) {
      if (statsKeys[i] == key) {
        return statsValues[i];
      }
    }
    EncodingStats built = new EncodingStats(data, dictionary);
    if (statsCount == MAX_CACHED_ENCODING_STATS) {
      return built;
    }
    if (statsCount == statsKeys.length) {
      statsKeys = Arrays.copyOf(statsKeys, statsCount * 2);
      statsValues = Arrays.copyOf(statsValues, statsCount * 2);
    }
    statsKeys[statsCount] = key;
    statsValues[statsCount++] = built;
    return built;
  }

  private static List<Encoding> fromKey(long key) {
    int n = (63 - Long.numberOfLeadingZeros(key)) / 4;
    Encoding[] out = new Encoding[n];
    for (int i = n - 1; i >= 0; i--) {
      out[i] = ThriftEnums.encoding((int) (key & 0xf));
      key >>>= 4;
    }
    return List.of(out);
  }

  private String where() {
    return "row group " + rowGroup + " column " + column.dottedPath() + ": ";
  }
}
