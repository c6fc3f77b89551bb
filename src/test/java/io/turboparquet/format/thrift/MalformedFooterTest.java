package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.MAP;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterOptions.ColumnSelector;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Hand-built and damaged footers and page headers: always a ParquetCorruptionException naming the file. */
class MalformedFooterTest {
  private static final String FILE = "hostile.parquet";
  private static final long FILE_LENGTH = 1 << 20;

  /** A valid footer: one INT32 leaf "x", one row group; {@code extra} adds fields at chosen places. */
  static byte[] footer(Consumer<CompactWriter> fileExtra, Consumer<CompactWriter> metaExtra, int codec,
      int... encodings) {
    CompactWriter w = new CompactWriter();
    w.beginStruct();
    w.i32(1, 2);
    w.list(2, STRUCT, 2);
    w.beginStruct().string(4, "schema").i32(5, 1).stop();
    w.beginStruct().i32(1, 1).i32(3, 0).string(4, "x").stop();
    w.i64(3, 10);
    w.list(4, STRUCT, 1);
    w.beginStruct();
    w.list(1, STRUCT, 1);
    w.beginStruct().i64(2, 4).struct(3);
    w.i32(1, 1).list(2, I32, encodings.length);
    for (int e : encodings) {
      w.rawZigzag(e);
    }
    w.list(3, BINARY, 1).rawString("x");
    w.i32(4, codec).i64(5, 10).i64(6, 40).i64(7, 40);
    metaExtra.accept(w);
    w.i64(9, 4);
    w.stop(); // ColumnMetaData
    w.stop(); // ColumnChunk
    w.i64(2, 40).i64(3, 10);
    w.stop(); // RowGroup
    fileExtra.accept(w);
    w.stop();
    return w.bytes();
  }

  static byte[] valid() {
    return footer(w -> { }, w -> { }, 0, 0, 3);
  }

  static FileMetadata decode(byte[] b) throws ParquetCorruptionException {
    return FooterDecoder.decode(FILE, FILE_LENGTH, b, 0, b.length,
        FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL));
  }

  static ParquetCorruptionException fails(byte[] b, String... fragments) {
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> decode(b));
    assertTrue(e.getMessage().startsWith("[" + FILE + "]"), e.getMessage());
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), e.getMessage() + " lacks " + fragment);
    }
    return e;
  }

  @Test
  void validFooterDecodes() throws IOException {
    FileMetadata m = decode(valid());
    assertEquals(10, m.numRows());
    ColumnChunkMeta c = m.rowGroups().get(0).column(0);
    assertEquals(List.of(Encoding.PLAIN, Encoding.RLE), c.encodings());
    assertEquals(40, c.totalCompressedSize());
    assertEquals("x", c.column().dottedPath());
  }

  @Test
  void unknownFieldsOfEveryWireTypeAreSkipped() throws IOException {
    byte[] b = footer(w -> {
      w.i32(20, 7).bool(21, true).bool(22, false).i64(23, -5).string(24, "future");
      w.field(25, ThriftCursor.DOUBLE).raw(1, 2, 3, 4, 5, 6, 7, 8);
      w.field(26, ThriftCursor.BYTE).raw(0x7f);
      w.list(27, STRUCT, 20); // long-form list size
      for (int i = 0; i < 20; i++) {
        w.beginStruct().i32(1, i).list(2, ThriftCursor.BOOLEAN_TRUE, 2).raw(1, 2).stop();
      }
      w.field(28, ThriftCursor.SET).listHeader(I32, 2).rawZigzag(1).rawZigzag(2);
      w.field(29, MAP).varint(2).raw(BINARY << 4 | STRUCT).rawString("k").beginStruct().stop()
          .rawString("l").beginStruct().i32(1, 1).stop();
      w.field(30, MAP).varint(0);
      w.longField(1000, I32).rawZigzag(1); // long-form field id
      w.struct(31).struct(1).struct(1).string(1, "deep").stop().stop().stop();
    }, w -> w.i32(17, 3).longField(300, BINARY).rawString("metadata from the future"), 0, 0);
    FileMetadata m = decode(b);
    assertEquals(10, m.numRows());
    assertEquals(List.of(Encoding.PLAIN), m.rowGroups().get(0).column(0).encodings());
  }

  @Test
  void futureEnumValuesAreTolerated() throws IOException {
    // encoding 42 is dropped; codec 99 decodes as null and fails only when the chunk is read
    FileMetadata m = decode(footer(w -> { }, w -> { }, 99, 0, 42, 8));
    ColumnChunkMeta c = m.rowGroups().get(0).column(0);
    assertEquals(List.of(Encoding.PLAIN, Encoding.RLE_DICTIONARY), c.encodings());
    assertNull(c.codec());
    assertEquals(99, c.codecId());
  }

  @Test
  void requiredFieldsAreChecked() {
    CompactWriter w = new CompactWriter().beginStruct();
    w.i32(1, 2).list(2, STRUCT, 1).beginStruct().string(4, "schema").stop().i64(3, 0);
    fails(w.stop().bytes(), "FileMetaData.row_groups");
    fails(withoutNumValues(), "ColumnMetaData.num_values", "row group 0 column x");
    fails(new CompactWriter().beginStruct().i32(1, 1).stop().bytes(), "FileMetaData.schema");
  }

  private static byte[] withoutNumValues() {
    byte[] b = valid();
    // rewrite num_values (field 5, i64) to field 15 (unknown, skipped): same length, so still well-formed
    for (int i = 0; i < b.length - 3; i++) {
      // codec (field 4, I32, 0) then num_values (delta 1, I64, zigzag(10) = 20)
      if (b[i] == (byte) 0x15 && b[i + 1] == 0 && b[i + 2] == (byte) 0x16 && b[i + 3] == 20) {
        b[i + 2] = (byte) 0xB6; // delta 11 -> field 15
        return b;
      }
    }
    throw new AssertionError("num_values not found");
  }

  @Test
  void negativeSizesNameTheField() {
    fails(negativeCompressedSize(valid()), "row group 0 column x: ColumnMetaData.total_compressed_size is negative");
  }

  private static byte[] negativeCompressedSize(byte[] valid) {
    byte[] b = valid.clone();
    for (int i = 0; i < b.length - 1; i++) {
      if (b[i] == (byte) 0x16 && b[i + 1] == 80 && b[i + 2] == (byte) 0x16 && b[i + 3] == 80) {
        b[i + 3] = 79; // zigzag 79 = -40: total_compressed_size
        return b;
      }
    }
    throw new AssertionError("sizes not found");
  }

  /**
   * {@link #footer} with enough bytes after the column chunk (a long created_by) that the decoder
   * reads the chunk by its common layout ({@code RowGroupDecoder.byLayout}) rather than generically.
   */
  static byte[] padded(int codec, int... encodings) {
    return footer(w -> w.string(6, "x".repeat(100)), w -> { }, codec, encodings);
  }

  @Test
  void chunksReadByTheCommonLayoutAreCheckedAsTheGenericReadChecksThem() throws IOException {
    byte[] padded = padded(99, 0, 42, 8);
    ColumnChunkMeta c = decode(padded).rowGroups().get(0).column(0);
    assertEquals(decode(footer(w -> { }, w -> { }, 99, 0, 42, 8)).rowGroups().get(0).column(0), c);
    assertEquals(List.of(Encoding.PLAIN, Encoding.RLE_DICTIONARY), c.encodings());
    assertEquals(99, c.codecId());
    fails(negativeCompressedSize(padded(0, 0)),
        "row group 0 column x: ColumnMetaData.total_compressed_size is negative");
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> FooterDecoder.decode(FILE, 4, padded, 0, padded.length, FooterOptions.DEFAULT));
    assertTrue(e.getMessage().contains("row group 0 column x: ColumnMetaData.data_page_offset 4 is outside the file"
        + " (4 bytes)"), e.getMessage());
    // an 11-byte num_values is named
    byte[] plain = padded(0, 0);
    int numValues = ThriftCursorTest.indexOf(plain, 0x15, 0x00, 0x16, 0x14, 0x16, 0x50) + 3;
    fails(ThriftCursorTest.longVarintAt(plain, numValues), "a varint is longer than 10 bytes");
    for (int len = 0; len < padded.length; len++) {
      fails(java.util.Arrays.copyOf(padded, len)); // every cut, also inside the chunk
    }
  }

  @Test
  void hugeCountsAndLengthsFailBeforeAllocating() {
    // a list claiming 2^31-1 key-value pairs in a 10-byte footer
    CompactWriter w = new CompactWriter().beginStruct().i32(1, 1);
    w.field(5, LIST).raw(0xf0 | STRUCT).varint(Integer.MAX_VALUE);
    fails(w.bytes(), "FileMetaData.key_value_metadata", "2147483647 elements");
    // a created_by claiming 1 GB
    w = new CompactWriter().beginStruct().field(6, BINARY).varint(1 << 30).raw('a', 'b');
    fails(w.bytes(), "FileMetaData.created_by", "bytes long");
    // a negative length
    w = new CompactWriter().beginStruct().field(6, BINARY).varint(0xffffffffL);
    fails(w.bytes(), "FileMetaData.created_by", "negative");
    // within the footer but above the configured limit
    byte[] b = footer(x -> x.string(6, "a writer with a long name"), x -> { }, 0, 0);
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> FooterDecoder.decode(FILE,
        FILE_LENGTH, b, 0, b.length, FooterOptions.DEFAULT.withMaxStringLength(8)));
    assertTrue(e.getMessage().contains("limit of 8"), e.getMessage());
  }

  /**
   * The root counts two children that each fit the remaining elements, but the first is a group
   * that takes the second's element as its own child: the count runs past the list.
   */
  @Test
  void childCountsThatRunPastTheSchemaFail() {
    byte[] b = schemaOnly(3, w -> {
      w.beginStruct().string(4, "schema").i32(5, 2).stop();
      w.beginStruct().i32(3, 0).string(4, "g").i32(5, 1).stop();
      w.beginStruct().i32(1, 1).i32(3, 0).string(4, "x").stop();
    });
    fails(b, "SchemaElement.num_children of the root", "3 schema elements");
  }

  /**
   * The root counts one child but two elements follow it: the one the tree leaves over (elements
   * are read only as the tree reaches them, so it is never read) must not pass unnoticed.
   */
  @Test
  void elementsTheTreeLeavesOverFail() {
    byte[] b = schemaOnly(3, w -> {
      w.beginStruct().string(4, "schema").i32(5, 1).stop();
      w.beginStruct().i32(1, 1).i32(3, 0).string(4, "x").stop();
      w.beginStruct().i32(1, 1).i32(3, 0).string(4, "y").stop();
    });
    fails(b, "FileMetaData.schema has 3 elements but the tree uses 2");
  }

  /** A FIXED_LEN_BYTE_ARRAY width of 1 GiB would cost 1 GiB per row, null or not: refused as a footer string would be. */
  @Test
  void fixedLengthAboveTheStringLimitFails() {
    byte[] b = schemaOnly(2, w -> {
      w.beginStruct().string(4, "schema").i32(5, 1).stop();
      w.beginStruct().i32(1, 7).i32(2, 1 << 30).i32(3, 1).string(4, "f").stop();
    });
    fails(b, "SchemaElement.type_length 1073741824", "column f", "limit of " + FooterOptions.DEFAULT_MAX_STRING_LENGTH);
  }

  /** A footer (version 2, no rows, no row groups) whose schema is {@code count} elements, written by {@code elements}. */
  private static byte[] schemaOnly(int count, Consumer<CompactWriter> elements) {
    CompactWriter w = new CompactWriter().beginStruct().i32(1, 2).list(2, STRUCT, count);
    elements.accept(w);
    return w.i64(3, 0).list(4, STRUCT, 0).stop().bytes();
  }

  @Test
  void deepNestingAndOverlongVarintsFail() {
    CompactWriter w = new CompactWriter().beginStruct();
    for (int i = 0; i < 10_000; i++) {
      w.struct(1);
    }
    fails(w.bytes(), "nested");
    byte[] varint = {0x15, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1, 0};
    fails(varint, "varint");
    fails(new byte[] {0x1d}, "wire type 13");
  }

  @Test
  void everyTruncationOfRealFootersFails() throws IOException {
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet",
        "datapage_v2.snappy.parquet", "nan_in_stats.parquet")) {
      FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(CorpusFiles.file(name));
      for (int len = 0; len < f.length(); len++) {
        int n = len;
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
            () -> FooterDecoder.decode(name, f.file().length, f.file(), f.offset(), n,
                FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL)), name + " cut at " + len);
        assertTrue(e.getMessage().startsWith("[" + name + "]"));
      }
    }
  }

  @Test
  void randomDamageNeverEscapesAsAnotherException() throws IOException {
    Random random = new Random(42);
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(CorpusFiles.file("alltypes_tiny_pages.parquet"));
    byte[] footer = java.util.Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
    int decoded = 0;
    for (int round = 0; round < 3000; round++) {
      byte[] b = footer.clone();
      for (int k = 1 + random.nextInt(4); k > 0; k--) {
        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      }
      try {
        FooterDecoder.decode(FILE, f.file().length, b, 0, b.length, FooterOptions.DEFAULT.withStatistics(
            ColumnSelector.ALL));
        decoded++;
      } catch (ParquetCorruptionException expected) {
        assertTrue(expected.getMessage().startsWith("[" + FILE + "]"));
      }
    }
    assertTrue(decoded < 3000, "some damage must be detected");
  }

  @Test
  void pageHeaders() throws IOException {
    PageHeaderDecoder d = new PageHeaderDecoder(FILE);
    // a V1 data page with an unknown field and page statistics, then the page body
    CompactWriter w = new CompactWriter().beginStruct().i32(1, 0).i32(2, 100).i32(3, 60).i32(4, 1234);
    w.struct(5).i32(1, 7).i32(2, 0).i32(3, 3).i32(4, 3).struct(5).string(1, "max").i64(3, 0).stop().stop();
    w.i32(9, 5).stop();
    byte[] header = w.bytes();
    byte[] withBody = java.util.Arrays.copyOf(header, header.length + 60);
    ByteArrayInputStream in = new ByteArrayInputStream(withBody);
    PageHeaderInfo h = d.read(in, 100, "rg 0 col x");
    assertEquals(PageType.DATA_PAGE, h.type());
    assertEquals(header.length, h.headerLength());
    assertEquals(60, in.available(), "must not read past the header");
    assertEquals(7, h.numValues());
    assertEquals(1234, h.crc());
    assertEquals(Encoding.RLE, h.definitionLevelEncoding());

    // a page type from the future is UNKNOWN, not an error
    byte[] future = new CompactWriter().beginStruct().i32(1, 9).i32(2, 5).i32(3, 5).stop().bytes();
    assertEquals(PageType.UNKNOWN, d.read(new ByteArrayInputStream(future), 0, "w").type());

    // negative size, missing nested header, unknown encoding, truncation: all corruption errors naming the field
    byte[] negative = new CompactWriter().beginStruct().i32(1, 2).i32(2, 5).i32(3, -1).stop().bytes();
    assertMessage(d, negative, "PageHeader.compressed_page_size is negative", "rg 9 col y", "offset 77");
    byte[] noDict = new CompactWriter().beginStruct().i32(1, 2).i32(2, 5).i32(3, 5).stop().bytes();
    assertMessage(d, noDict, "dictionary_page_header");
    byte[] badEncoding = new CompactWriter().beginStruct().i32(1, 2).i32(2, 5).i32(3, 5).struct(7).i32(1, 1)
        .i32(2, 77).stop().stop().bytes();
    assertMessage(d, badEncoding, "unknown encoding id 77");
    for (int len = 0; len < header.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(header, len);
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
          () -> d.read(new ByteArrayInputStream(cut), 77, "rg 9 col y"));
      assertTrue(e.getMessage().contains("end of the data") || e.getMessage().contains("bytes are left"),
          e.getMessage());
    }

    // a header longer than the first peek (long page statistics) is peeked again, and read no further
    String longMax = "m".repeat(5000);
    CompactWriter big = new CompactWriter().beginStruct().i32(1, 0).i32(2, 100).i32(3, 60);
    big.struct(5).i32(1, 7).i32(2, 0).i32(3, 3).i32(4, 3).struct(5).string(1, longMax).stop().stop().stop();
    byte[] bigHeader = big.bytes();
    byte[] bigWithBody = java.util.Arrays.copyOf(bigHeader, bigHeader.length + 60);
    ByteArrayInputStream bigIn = new ByteArrayInputStream(bigWithBody);
    PageHeaderInfo bh = d.read(bigIn, 0, "rg 0 col x");
    assertEquals(bigHeader.length, bh.headerLength());
    assertEquals(60, bigIn.available(), "must not read past the header");
    assertEquals(7, bh.numValues());
    // the same header cut inside its long string: the retries end at the stream's end and say so
    assertMessage(d, java.util.Arrays.copyOf(bigHeader, 3000), "is 5000 bytes long but only");
  }

  private static void assertMessage(PageHeaderDecoder d, byte[] b, String... fragments) {
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> d.read(new ByteArrayInputStream(b), 77, "rg 9 col y"));
    assertTrue(e.getMessage().startsWith("[" + FILE + "]"), e.getMessage());
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), e.getMessage() + " lacks " + fragment);
    }
  }
}
