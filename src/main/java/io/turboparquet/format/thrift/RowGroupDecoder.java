package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.I16;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.listSize;
import static io.turboparquet.format.thrift.ThriftCursor.listType;

import io.turboparquet.format.BloomFilterLocation;
import io.turboparquet.format.ChunkCoding;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.EncodingStats;
import io.turboparquet.format.GeospatialStatistics;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.crypto.ChunkDecryptor;
import io.turboparquet.format.crypto.FileDecryptor;
import io.turboparquet.format.crypto.ModuleType;
import io.turboparquet.io.ErrorContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * RowGroup, ColumnChunk and ColumnMetaData. Chunks outside the projection are skipped whole;
 * ColumnMetaData lands in scratch fields so a decoded chunk costs one model object (plus its
 * statistics when asked for, and its bloom filter's location when it has one; codec, encodings and
 * encoding stats are one {@link ChunkCoding} shared between the chunks that repeat them).
 */
final class RowGroupDecoder {
  private static final CompressionCodec[] CODECS = CompressionCodec.values();
  private static final int MAX_CACHED_CODINGS = 64;
  // ColumnMetaData.encodings as a key: a leading 1 bit, then 4 bits per known encoding (at most 15)
  private static final int MAX_KEYED_ENCODINGS = 15;
  private static final long UNKNOWN_ENCODINGS = 1L << 62;
  private static final long NO_ENCODING_STATS = -1; // bits 10-30 of either half are never set

  /** The footer's cursor, but over a decrypted ColumnMetaData while that is decoded. */
  private ThriftCursor r;
  private final long fileLength;
  private final List<ColumnDescriptor> leaves;
  private final boolean[] projected;
  private final boolean[] statistics;
  /** Keys of an encrypted file; null when none are (chunks with crypto metadata then fail when read). */
  private FileDecryptor decryptor;

  // Files repeat a handful of codings; one instance per distinct (encodings, encoding stats, codec).
  private long[] codingKeys = new long[8]; // two a coding: encodings key, encoding stats key
  private int[] codingCodecs = new int[4];
  private ChunkCoding[] codings = new ChunkCoding[4];
  private int codingCount;

  // Scratch for the ColumnMetaData being decoded.
  private int rowGroup;
  private ColumnDescriptor column;
  private int codecId;
  private long encodingsKey; // see encodings()
  private List<Encoding> longEncodings;
  private long numValues;
  private long totalUncompressed;
  private long totalCompressed;
  private long dataPageOffset;
  private long dictionaryPageOffset;
  private ColumnStatistics chunkStatistics;
  private GeospatialStatistics geospatial;
  private long encodingStats;
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
  }

  /** The decryptor of the file's encrypted chunks, once the footer has told the algorithm. */
  void decryptor(FileDecryptor decryptor) {
    this.decryptor = decryptor;
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
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | LIST)) {
        chunks = chunks(index);
        f = r.readField(1);
      }
      if (f == (2 << 4 | I64)) {
        totalByteSize = r.readI64();
        hasTotalByteSize = true;
        f = r.readField(2);
      }
      if (f == (3 << 4 | I64)) {
        numRows = r.readI64();
        hasNumRows = true;
        f = r.readField(3);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(chunks != null, "RowGroup.columns (row group " + index + ")");
    r.require(hasTotalByteSize, "RowGroup.total_byte_size (row group " + index + ")");
    r.require(hasNumRows, "RowGroup.num_rows (row group " + index + ")");
    if (numRows < 0) {
      throw r.corrupt(where(index) + "RowGroup.num_rows is negative");
    }
    return new RowGroupMeta(index, numRows, totalByteSize, chunks);
  }

  private List<ColumnChunkMeta> chunks(int index) throws ParquetCorruptionException {
    int n = r.readList("RowGroup.columns", STRUCT);
    if (n != leaves.size()) {
      throw r.corrupt(where(index) + "has " + n + " column chunks, the schema " + leaves.size() + " leaves");
    }
    ColumnChunkMeta[] out = new ColumnChunkMeta[n];
    for (int i = 0; i < n; i++) {
      if (projected == null || projected[i]) {
        out[i] = chunk(index, leaves.get(i), statistics == null || statistics[i]);
      } else {
        r.skip(STRUCT); // left out of the projection: walked, checked, not decoded
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
    CryptoDecoder.ColumnCrypto crypto = null;
    long encryptedMeta = -1;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (2 << 4 | I64)) {
        r.readI64(); // file_offset: deprecated, required on the wire
        hasFileOffset = true;
        f = r.readField(2);
      }
      if (f == (3 << 4 | STRUCT)) {
        metaData(withStatistics);
        hasMeta = true;
        f = r.readField(3);
      }
      if (f == (4 << 4 | I64)) {
        offsetIndexOffset = r.readI64();
        f = r.readField(4);
      }
      if (f == (5 << 4 | I32)) {
        offsetIndexLength = r.readI32();
        f = r.readField(5);
      }
      if (f == (6 << 4 | I64)) {
        columnIndexOffset = r.readI64();
        f = r.readField(6);
      }
      if (f == (7 << 4 | I32)) {
        columnIndexLength = r.readI32();
        f = r.readField(7);
      }
      if (f == (8 << 4 | STRUCT)) {
        crypto = CryptoDecoder.column(r);
        f = r.readField(8);
      }
      if (f == (9 << 4 | BINARY)) {
        encryptedMeta = r.readSpan("ColumnChunk.encrypted_column_metadata");
        f = r.readField(9);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    ChunkDecryptor chunkDecryptor = null;
    if (crypto != null) {
      chunkDecryptor = encrypted(leaf, crypto, encryptedMeta, withStatistics);
      hasMeta |= chunkDecryptor.hasKey() && encryptedMeta >= 0;
      if (!hasMeta) {
        chunkDecryptor.requireKey(); // the reason there is no metadata to read, naming the column
      }
    }
    if (!hasFileOffset) { // not r.require: the message would be built for every chunk
      throw r.corrupt(where() + "required field ColumnChunk.file_offset is missing");
    }
    if (!hasMeta) {
      throw r.corrupt(where() + "ColumnChunk.meta_data is missing (encrypted or external columns are not supported)");
    }
    return build(leaf, offsetIndexOffset, offsetIndexLength, columnIndexOffset, columnIndexLength, chunkDecryptor);
  }

  /**
   * The decryptor of an encrypted chunk; with its key, the chunk's ColumnMetaData decrypted from
   * {@code encryptedMeta} (a span of the footer) into the scratch fields, in place of a plaintext
   * footer's copy, which lacks the statistics.
   */
  private ChunkDecryptor encrypted(ColumnDescriptor leaf, CryptoDecoder.ColumnCrypto crypto, long encryptedMeta,
      boolean withStatistics) throws ParquetCorruptionException {
    if (crypto.path() != null && !crypto.path().equals(leaf.path())) {
      throw r.corrupt(where() + "EncryptionWithColumnKey.path_in_schema is " + crypto.path());
    }
    ChunkDecryptor chunk = decryptor == null
        ? ChunkDecryptor.unavailable(ErrorContext.of(r.file()).inRowGroup(rowGroup).column(leaf.dottedPath()),
            FileDecryptor.NO_KEYS)
        : decryptor.chunk(rowGroup, leaf.index(), leaf.path(), crypto.footerKey(), crypto.keyMetadata());
    if (encryptedMeta >= 0 && chunk.hasKey()) {
      byte[] plain = chunk.module(r.bytes(), (int) (encryptedMeta >>> 32), (int) encryptedMeta,
          ModuleType.COLUMN_META_DATA, 0);
      ThriftCursor footer = r;
      r = new ThriftCursor(footer.file(), "column metadata", plain, 0, plain.length, footer.maxStringLength());
      try {
        metaData(withStatistics);
      } finally {
        r = footer;
      }
    }
    return chunk;
  }

  private ColumnChunkMeta build(ColumnDescriptor leaf, long offsetIndexOffset, int offsetIndexLength,
      long columnIndexOffset, int columnIndexLength, ChunkDecryptor chunkDecryptor) {
    // Checked where it is used (a scan's bloom filter pruning); a negative offset is no filter, as in parquet-java.
    BloomFilterLocation bloomFilter = bloomFilterOffset >= 0
        ? new BloomFilterLocation(bloomFilterOffset, bloomFilterLength) : null;
    return new ColumnChunkMeta(leaf, coding(), numValues, totalCompressed, totalUncompressed, dataPageOffset,
        dictionaryPageOffset, chunkStatistics, offsetIndexOffset, offsetIndexLength, columnIndexOffset,
        columnIndexLength, bloomFilter, geospatial, chunkDecryptor);
  }

  private void metaData(boolean withStatistics) throws ParquetCorruptionException {
    // bit per required field: type, encodings, path_in_schema, codec, num_values, sizes, data_page_offset
    int seen = 0;
    dictionaryPageOffset = -1;
    chunkStatistics = null;
    geospatial = null;
    encodingStats = NO_ENCODING_STATS;
    bloomFilterOffset = -1;
    bloomFilterLength = 0;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        r.readI32(); // the schema's type is the one we use
        seen |= 1;
        f = r.readField(1);
      }
      if (f == (2 << 4 | LIST)) {
        encodingsKey = encodings();
        seen |= 2;
        f = r.readField(2);
      }
      if (f == (3 << 4 | LIST)) {
        r.skip(LIST); // path_in_schema repeats the schema's path
        seen |= 4;
        f = r.readField(3);
      }
      if (f == (4 << 4 | I32)) {
        codecId = r.readI32();
        seen |= 8;
        f = r.readField(4);
      }
      if (f == (5 << 4 | I64)) {
        numValues = r.readI64();
        seen |= 16;
        f = r.readField(5);
      }
      if (f == (6 << 4 | I64)) {
        totalUncompressed = r.readI64();
        seen |= 32;
        f = r.readField(6);
      }
      if (f == (7 << 4 | I64)) {
        totalCompressed = r.readI64();
        seen |= 64;
        f = r.readField(7);
      }
      if (f == (9 << 4 | I64)) {
        dataPageOffset = r.readI64();
        seen |= 128;
        f = r.readField(9);
      }
      if (f == (11 << 4 | I64)) {
        dictionaryPageOffset = r.readI64();
        f = r.readField(11);
      }
      if (f == (12 << 4 | STRUCT)) {
        if (withStatistics) {
          chunkStatistics = StatisticsDecoder.read(r);
        } else {
          r.skip(STRUCT);
        }
        f = r.readField(12);
      }
      if (f == (13 << 4 | LIST)) {
        encodingStats = encodingStats();
        f = r.readField(13);
      }
      if (f == (14 << 4 | I64)) {
        bloomFilterOffset = r.readI64();
        f = r.readField(14);
      }
      if (f == (15 << 4 | I32)) {
        bloomFilterLength = r.readI32();
        f = r.readField(15);
      }
      if (f == (17 << 4 | STRUCT)) { // always: only geospatial chunks have it, and it is small
        geospatial = StatisticsDecoder.readGeospatial(r);
        f = r.readField(17);
      }
      f = r.position() == at ? r.skipField(f) : f;
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
    // The chunk's declared range bounds every read of it, in every read mode: checked here, once.
    long start = dictionaryPageOffset >= 0 && dictionaryPageOffset < dataPageOffset ? dictionaryPageOffset
        : dataPageOffset;
    if (totalCompressed > fileLength - start) {
      throw r.corrupt(where() + "ColumnMetaData.total_compressed_size " + totalCompressed + " at offset " + start
          + " runs past the end of the file (" + fileLength + " bytes)");
    }
  }

  /**
   * ColumnMetaData.encodings as a key (ids from the future are dropped, only fatal if a page uses
   * them, and flagged), or, when the list is too long to key, the flag and the sign bit, the list
   * in {@code longEncodings}.
   */
  private long encodings() throws ParquetCorruptionException {
    int list = r.readList("ColumnMetaData.encodings");
    int n = listSize(list);
    // Thrift's generated readers ignore the element type; some writers declare i16 (same varint).
    if (listType(list) != I32 && listType(list) != I16 && n > 0) {
      throw r.corrupt(where() + "ColumnMetaData.encodings is a list of wire type " + listType(list));
    }
    long key = 1;
    long unknown = 0;
    Encoding[] known = n <= MAX_KEYED_ENCODINGS ? null : new Encoding[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      Encoding e = ThriftEnums.encoding(r.readI32());
      if (e == null) {
        unknown = UNKNOWN_ENCODINGS;
      } else if (known == null) {
        key = key << 4 | e.thriftId();
      } else {
        known[count++] = e;
      }
    }
    if (known == null) {
      return key | unknown;
    }
    longEncodings = List.of(Arrays.copyOf(known, count));
    return Long.MIN_VALUE | unknown;
  }

  /**
   * ColumnMetaData.encoding_stats: which encodings the data pages and the dictionary page use, as
   * {@code data << 32 | dictionary}. Page types and encodings from the future count as
   * {@link EncodingStats#UNKNOWN} data-page encodings.
   */
  private long encodingStats() throws ParquetCorruptionException {
    int n = r.readList("ColumnMetaData.encoding_stats", STRUCT);
    int data = 0;
    int dictionary = 0;
    for (int i = 0; i < n; i++) {
      int pageType = -1;
      int encoding = -1;
      boolean hasCount = false;
      for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
        int at = r.position();
        if (f == (1 << 4 | I32)) {
          pageType = r.readI32();
          f = r.readField(1);
        }
        if (f == (2 << 4 | I32)) {
          encoding = r.readI32();
          f = r.readField(2);
        }
        if (f == (3 << 4 | I32)) {
          r.readI32(); // the count: not kept
          hasCount = true;
          f = r.readField(3);
        }
        f = r.position() == at ? r.skipField(f) : f;
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
    return (long) data << 32 | dictionary & 0xffffffffL;
  }

  /** The chunk's coding: the instance of an earlier chunk that had the same one, else a new one. */
  private ChunkCoding coding() {
    boolean unknown = (encodingsKey & UNKNOWN_ENCODINGS) != 0;
    if (encodingsKey < 0) { // too long to key: not shared
      return newCoding(longEncodings, unknown);
    }
    for (int i = 0; i < codingCount; i++) {
      if (codingKeys[2 * i] == encodingsKey && codingKeys[2 * i + 1] == encodingStats && codingCodecs[i] == codecId) {
        return codings[i];
      }
    }
    int n = (63 - Long.numberOfLeadingZeros(encodingsKey & ~UNKNOWN_ENCODINGS)) / 4;
    Encoding[] list = new Encoding[n];
    for (int i = n - 1, k = 0; i >= 0; i--, k += 4) {
      list[i] = ThriftEnums.encoding((int) (encodingsKey >>> k & 0xf));
    }
    ChunkCoding built = newCoding(List.of(list), unknown);
    if (codingCount == MAX_CACHED_CODINGS) {
      return built; // a hostile footer must not make the lookup quadratic
    }
    if (codingCount == codings.length) {
      codingKeys = Arrays.copyOf(codingKeys, codingCount * 4);
      codingCodecs = Arrays.copyOf(codingCodecs, codingCount * 2);
      codings = Arrays.copyOf(codings, codingCount * 2);
    }
    codingKeys[2 * codingCount] = encodingsKey;
    codingKeys[2 * codingCount + 1] = encodingStats;
    codingCodecs[codingCount] = codecId;
    codings[codingCount++] = built;
    return built;
  }

  private ChunkCoding newCoding(List<Encoding> encodings, boolean unknown) {
    CompressionCodec codec = codecId >= 0 && codecId < CODECS.length ? CODECS[codecId] : null;
    EncodingStats stats = encodingStats == NO_ENCODING_STATS ? null
        : new EncodingStats((int) (encodingStats >>> 32), (int) encodingStats);
    return new ChunkCoding(codec, codecId, encodings, unknown, stats);
  }

  /** "row group 3: " */
  private String where(int index) {
    return ErrorContext.of(r.file()).inRowGroup(index).where() + ": ";
  }

  /** "row group 3 column a.b: " */
  private String where() {
    return ErrorContext.of(r.file()).inRowGroup(rowGroup).column(column.dottedPath()).where() + ": ";
  }
}
