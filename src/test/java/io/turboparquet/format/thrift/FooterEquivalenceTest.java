package io.turboparquet.format.thrift;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnIndex;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterOptions.ColumnSelector;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageIndexLocation;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.ThriftFooterDecoder;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.SharedGeneratedFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-written decoder against parquet-java on every corpus file and every generated file:
 * the model equals the Thrift-class conversion (ThriftFooterDecoder) field by field; statistics
 * equal parquet-format's Statistics and what ParquetMetadataConverter keeps of them; every page
 * header and every page index equals parquet-format's.
 */
class FooterEquivalenceTest {
  static List<Path> generated;

  @BeforeAll
  static void generate() {
    generated = SharedGeneratedFiles.all().stream().map(GeneratedFile::path).toList();
  }

  static Stream<Path> corpus() {
    return CorpusFiles.all().stream();
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void corpusFile(Path file) throws IOException {
    check(file);
  }

  @Test
  void generatedFiles() throws IOException {
    assertTrue(generated.size() > 20, "generated " + generated.size());
    for (Path file : generated) {
      check(file);
    }
  }

  /**
   * parquet-testing's files with bloom filters (copied to the test classpath): bloom filter location
   * (parquet-mr 1.13 without {@code bloom_filter_length}, parquet-rs with it) and encoding stats as
   * parquet-format decodes them.
   */
  @Test
  void bloomFilterFiles() throws Exception {
    for (String name : List.of("data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet")) {
      Path file = Path.of(FooterEquivalenceTest.class.getResource("/parquet-testing/" + name).toURI());
      check(file);
      Footer f = Footer.of(file);
      ColumnChunkMeta chunk = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length())
          .rowGroups().get(0).column(0);
      assertNotNull(chunk.bloomFilter(), name);
      boolean rs = name.contains("with_length"); // parquet-rs: a bloom filter length, no encoding stats
      assertEquals(rs, chunk.bloomFilter().hasLength(), name);
      assertEquals(rs, chunk.encodingStats() == null, name);
    }
  }

  /** The bytes of a file and its footer. */
  record Footer(String name, byte[] file, int offset, int length) {
    static Footer of(Path path) throws IOException {
      byte[] bytes = Files.readAllBytes(path);
      int n = bytes.length;
      int length = ByteBuffer.wrap(bytes, n - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
      return new Footer(path.toString(), bytes, n - 8 - length, length);
    }
  }

  static void check(Path path) throws IOException {
    Footer f = Footer.of(path);
    FileMetadata expected;
    try {
      expected = ThriftFooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length());
    } catch (ParquetCorruptionException | RuntimeException oracleFailed) {
      // the oracle refuses it (bad_data): so must we, with our exception type and the file name
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
          () -> FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length()), f.name());
      assertTrue(e.getMessage().startsWith("[" + f.name() + "]"), e.getMessage());
      return;
    }
    FileMetadata actual = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length());
    assertSameModel(expected, actual);

    FileMetaData thrift = Util.readFileMetaData(new ByteArrayInputStream(f.file(), f.offset(), f.length()));
    FileMetadata withStats = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length(),
        FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL));
    assertSameModel(expected, withStats);
    checkStatisticsAndIndexLocations(f, thrift, withStats);
    checkConverterStatistics(path, withStats);
    checkProjection(f, actual, withStats);
    checkPageHeaders(f, actual);
    checkPageIndexes(f, actual);
  }

  static void assertSameModel(FileMetadata expected, FileMetadata actual) {
    String file = expected.file();
    assertEquals(expected.file(), actual.file());
    assertEquals(expected.fileLength(), actual.fileLength(), file);
    assertEquals(expected.footerLength(), actual.footerLength(), file);
    assertEquals(expected.numRows(), actual.numRows(), file);
    assertEquals(expected.createdBy(), actual.createdBy(), file);
    assertEquals(expected.keyValues(), actual.keyValues(), file);
    assertEquals(expected.schema().root(), actual.schema().root(), file + " schema tree");
    assertEquals(expected.schema().columns(), actual.schema().columns(), file + " leaves");
    assertEquals(expected.rowGroups().size(), actual.rowGroups().size(), file);
    for (int g = 0; g < expected.rowGroups().size(); g++) {
      RowGroupMeta e = expected.rowGroups().get(g);
      RowGroupMeta a = actual.rowGroups().get(g);
      assertEquals(e.index(), a.index());
      assertEquals(e.numRows(), a.numRows(), file);
      assertEquals(e.totalByteSize(), a.totalByteSize(), file);
      assertEquals(e.columns().size(), a.columns().size(), file);
      for (int c = 0; c < e.columns().size(); c++) {
        assertSameChunk(e.column(c), a.column(c), file + " rg " + g + " col " + c);
      }
    }
  }

  /** The fields the Thrift-class conversion fills; statistics and page index are checked apart. */
  static void assertSameChunk(ColumnChunkMeta e, ColumnChunkMeta a, String where) {
    assertEquals(e.column(), a.column(), where);
    assertEquals(e.codec(), a.codec(), where);
    assertEquals(e.codecId(), a.codecId(), where);
    assertEquals(e.encodings(), a.encodings(), where);
    assertEquals(e.numValues(), a.numValues(), where);
    assertEquals(e.totalCompressedSize(), a.totalCompressedSize(), where);
    assertEquals(e.totalUncompressedSize(), a.totalUncompressedSize(), where);
    assertEquals(e.dataPageOffset(), a.dataPageOffset(), where);
    assertEquals(e.dictionaryPageOffset(), a.dictionaryPageOffset(), where);
    assertEquals(e.encodingStats(), a.encodingStats(), where + " encoding stats");
    assertEquals(e.unknownEncodings(), a.unknownEncodings(), where);
    assertEquals(e.bloomFilter(), a.bloomFilter(), where + " bloom filter");
  }

  static void checkStatisticsAndIndexLocations(Footer f, FileMetaData thrift, FileMetadata ours) {
    for (int g = 0; g < thrift.getRow_groups().size(); g++) {
      List<ColumnChunk> chunks = thrift.getRow_groups().get(g).getColumns();
      for (int c = 0; c < chunks.size(); c++) {
        ColumnChunk cc = chunks.get(c);
        ColumnChunkMeta chunk = ours.rowGroups().get(g).column(c);
        String where = f.name() + " rg " + g + " col " + c;
        ColumnMetaData md = cc.getMeta_data();
        if (!md.isSetStatistics()) {
          assertNull(chunk.statistics(), where);
        } else {
          Statistics s = md.getStatistics();
          ColumnStatistics st = chunk.statistics();
          assertNotNull(st, where);
          assertArrayEquals(s.getMin(), st.min(), where);
          assertArrayEquals(s.getMax(), st.max(), where);
          assertArrayEquals(s.getMin_value(), st.minValue(), where);
          assertArrayEquals(s.getMax_value(), st.maxValue(), where);
          assertEquals(s.isSetNull_count() ? s.getNull_count() : -1, st.nullCount(), where);
          assertEquals(s.isSetDistinct_count() ? s.getDistinct_count() : -1, st.distinctCount(), where);
          assertEquals(s.isSetIs_min_value_exact() ? s.isIs_min_value_exact() : null, st.minValueExact(), where);
          assertEquals(s.isSetIs_max_value_exact() ? s.isIs_max_value_exact() : null, st.maxValueExact(), where);
        }
        PageIndexLocation pi = chunk.pageIndex();
        if (!cc.isSetOffset_index_offset() && !cc.isSetColumn_index_offset()) {
          assertNull(pi, where);
        } else {
          assertEquals(cc.isSetOffset_index_offset() ? cc.getOffset_index_offset() : -1, pi.offsetIndexOffset());
          assertEquals(cc.getOffset_index_length(), pi.offsetIndexLength(), where);
          assertEquals(cc.isSetColumn_index_offset() ? cc.getColumn_index_offset() : -1, pi.columnIndexOffset());
          assertEquals(cc.getColumn_index_length(), pi.columnIndexLength(), where);
        }
      }
    }
  }

  /**
   * What parquet-java's converter keeps: the null count whenever it kept statistics, and min/max
   * (from min_value/max_value, else the deprecated fields) when it trusts them.
   */
  static void checkConverterStatistics(Path path, FileMetadata ours) throws IOException {
    ParquetMetadata pm;
    try (var in = Files.newInputStream(path)) {
      byte[] all = in.readAllBytes();
      Footer f = Footer.of(path);
      pm = new ParquetMetadataConverter().readParquetMetadata(
          new ByteArrayInputStream(all, f.offset(), f.length()), ParquetMetadataConverter.NO_FILTER);
    } catch (RuntimeException converterRefuses) {
      // ARROW-GH-41317: path_in_schema disagrees with the schema; only bad_data may do that
      assertTrue(path.toString().contains("bad_data"), path + ": " + converterRefuses);
      return;
    }
    int compared = 0;
    for (int g = 0; g < pm.getBlocks().size(); g++) {
      BlockMetaData block = pm.getBlocks().get(g);
      for (int c = 0; c < block.getColumns().size(); c++) {
        ColumnChunkMetaData cm = block.getColumns().get(c);
        org.apache.parquet.column.statistics.Statistics<?> s = cm.getStatistics();
        ColumnStatistics st = ours.rowGroups().get(g).column(c).statistics();
        String where = path + " rg " + g + " col " + c;
        if (s == null || s.isEmpty()) {
          continue;
        }
        assertNotNull(st, where);
        if (s.isNumNullsSet()) {
          assertEquals(s.getNumNulls(), st.nullCount(), where);
        }
        if (s.hasNonNullValue()) {
          byte[] min = st.minValue() != null ? st.minValue() : st.min();
          byte[] max = st.maxValue() != null ? st.maxValue() : st.max();
          var type = ours.rowGroups().get(g).column(c).column().physicalType();
          assertSameBound(type, s.getMinBytes(), min, where + " min");
          assertSameBound(type, s.getMaxBytes(), max, where + " max");
          compared++;
        }
      }
    }
    assertTrue(compared >= 0);
  }

  /** parquet-java turns a float bound of +0.0 into -0.0 and the reverse (PARQUET-1222): compare values. */
  static void assertSameBound(io.turboparquet.format.PhysicalType type, byte[] expected, byte[] actual, String where) {
    ByteBuffer e = ByteBuffer.wrap(expected).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    ByteBuffer a = ByteBuffer.wrap(actual).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    switch (type) {
      case FLOAT -> assertEquals(e.getFloat() + 0.0f, a.getFloat() + 0.0f, where);
      case DOUBLE -> assertEquals(e.getDouble() + 0.0, a.getDouble() + 0.0, where);
      default -> assertArrayEquals(expected, actual, where);
    }
  }

  /** Projected decode: the chosen chunks as in the full decode, the others absent and unparsed. */
  static void checkProjection(Footer f, FileMetadata full, FileMetadata withStats)
      throws ParquetCorruptionException {
    int leaves = full.schema().columns().size();
    int last = leaves - 1;
    FileMetadata projected = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length(),
        FooterOptions.DEFAULT.withColumns(ColumnSelector.leaves(0, last))
            .withStatistics(ColumnSelector.leaves(last)));
    assertEquals(full.schema().columns(), projected.schema().columns());
    assertEquals(full.numRows(), projected.numRows());
    for (int g = 0; g < full.rowGroups().size(); g++) {
      RowGroupMeta a = projected.rowGroups().get(g);
      assertEquals(full.rowGroups().get(g).numRows(), a.numRows());
      for (int c = 0; c < leaves; c++) {
        if (c == 0 || c == last) {
          FileMetadata expected = c == last ? withStats : full;
          assertEquals(expected.rowGroups().get(g).column(c), a.column(c), f.name());
        } else {
          assertFalse(a.isDecoded(c));
          int col = c;
          assertThrows(IllegalStateException.class, () -> a.column(col));
        }
      }
      if (last > 0) {
        assertNull(a.column(0).statistics(), "statistics only where asked");
      }
    }
    checkKeyValueSelection(f, full);
  }

  /** Key-values under every other key (in sorted order) as the full decode has them, then none. */
  static void checkKeyValueSelection(Footer f, FileMetadata full) throws ParquetCorruptionException {
    List<String> keys = full.keyValues().keySet().stream().sorted().toList();
    Set<String> kept = new HashSet<>();
    for (int i = 0; i < keys.size(); i += 2) {
      kept.add(keys.get(i));
    }
    Map<String, String> expected = new HashMap<>(full.keyValues());
    expected.keySet().retainAll(kept);
    FileMetadata some = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length(),
        FooterOptions.DEFAULT.withKeyValues(kept::contains));
    assertEquals(expected, some.keyValues(), f.name());
    FileMetadata none = FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length(),
        FooterOptions.DEFAULT.withKeyValues(FooterOptions.NO_KEY));
    assertEquals(Map.of(), none.keyValues(), f.name());
    assertEquals(full.schema().columns(), none.schema().columns(), f.name());
    assertEquals(full.rowGroups(), none.rowGroups(), f.name());
    assertEquals(full.createdBy(), none.createdBy(), f.name());
  }

  /** Walks every chunk's pages with both header decoders. */
  static void checkPageHeaders(Footer f, FileMetadata meta) throws IOException {
    PageHeaderDecoder ours = new PageHeaderDecoder(f.name());
    int pages = 0;
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (ColumnChunkMeta chunk : rg.columns()) {
        long pos = chunk.startOffset();
        long end = pos + chunk.totalCompressedSize();
        long values = 0;
        while (pos < end && values < chunk.numValues()) {
          ByteArrayInputStream thriftIn = new ByteArrayInputStream(f.file(), (int) pos, f.file().length - (int) pos);
          PageHeader h;
          try {
            h = Util.readPageHeader(thriftIn);
          } catch (IOException e) {
            long at = pos;
            assertThrows(ParquetCorruptionException.class, () -> ours.read(
                new ByteArrayInputStream(f.file(), (int) at, f.file().length - (int) at), at, "x"), f.name());
            break;
          }
          int thriftLength = f.file().length - (int) pos - thriftIn.available();
          ByteArrayInputStream ourIn = new ByteArrayInputStream(f.file(), (int) pos, f.file().length - (int) pos);
          PageHeaderInfo info;
          try {
            info = ours.read(ourIn, pos, "rg " + rg.index());
          } catch (ParquetCorruptionException e) {
            // the old Thrift path refuses the same things after decoding (negative sizes, counts)
            assertTrue(e.getMessage().startsWith("[" + f.name() + "]"), e.getMessage());
            assertTrue(h.getCompressed_page_size() < 0 || h.getUncompressed_page_size() < 0
                || pageNumValues(h) < 0, "only the sanity checks may refuse what Thrift decodes: " + e.getMessage());
            break;
          }
          assertEquals(thriftLength, info.headerLength(), "header length");
          assertEquals(thriftLength, f.file().length - (int) pos - ourIn.available(), "read past the header");
          assertHeader(h, info, f.name() + " at " + pos);
          pages++;
          if (info.isDataPage()) {
            values += info.numValues();
          }
          pos += thriftLength + info.compressedSize();
        }
      }
    }
    assertTrue(pages > 0 || meta.numRows() == 0, f.name() + ": no pages compared");
  }

  private static int pageNumValues(PageHeader h) {
    if (h.isSetDictionary_page_header()) {
      return h.getDictionary_page_header().getNum_values();
    }
    if (h.isSetData_page_header()) {
      return h.getData_page_header().getNum_values();
    }
    return h.isSetData_page_header_v2() ? h.getData_page_header_v2().getNum_values() : 0;
  }

  static void assertHeader(PageHeader h, PageHeaderInfo info, String where) {
    assertEquals(PageType.fromThriftId(h.getType().getValue()), info.type(), where);
    assertEquals(h.getUncompressed_page_size(), info.uncompressedSize(), where);
    assertEquals(h.getCompressed_page_size(), info.compressedSize(), where);
    assertEquals(h.isSetCrc(), info.hasCrc(), where);
    assertEquals(h.getCrc(), info.crc(), where);
    switch (info.type()) {
      case DATA_PAGE -> {
        var d = h.getData_page_header();
        assertEquals(d.getNum_values(), info.numValues(), where);
        assertEquals(d.getEncoding().getValue(), info.encoding().thriftId(), where);
        assertEquals(d.getDefinition_level_encoding().getValue(), info.definitionLevelEncoding().thriftId(), where);
        assertEquals(d.getRepetition_level_encoding().getValue(), info.repetitionLevelEncoding().thriftId(), where);
        assertTrue(info.compressed());
      }
      case DATA_PAGE_V2 -> {
        var d = h.getData_page_header_v2();
        assertEquals(d.getNum_values(), info.numValues(), where);
        assertEquals(d.getNum_nulls(), info.numNulls(), where);
        assertEquals(d.getNum_rows(), info.numRows(), where);
        assertEquals(d.getEncoding().getValue(), info.encoding().thriftId(), where);
        assertEquals(d.getDefinition_levels_byte_length(), info.definitionLevelsByteLength(), where);
        assertEquals(d.getRepetition_levels_byte_length(), info.repetitionLevelsByteLength(), where);
        assertEquals(!d.isSetIs_compressed() || d.isIs_compressed(), info.compressed(), where);
      }
      case DICTIONARY_PAGE -> {
        var d = h.getDictionary_page_header();
        assertEquals(d.getNum_values(), info.numValues(), where);
        assertEquals(d.getEncoding().getValue(), info.encoding().thriftId(), where);
      }
      default -> assertNull(info.encoding(), where);
    }
  }

  static void checkPageIndexes(Footer f, FileMetadata meta) throws IOException {
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (ColumnChunkMeta chunk : rg.columns()) {
        PageIndexLocation pi = chunk.pageIndex();
        if (pi == null) {
          continue;
        }
        if (pi.hasOffsetIndex()) {
          org.apache.parquet.format.OffsetIndex e = Util.readOffsetIndex(
              new ByteArrayInputStream(f.file(), (int) pi.offsetIndexOffset(), pi.offsetIndexLength()));
          OffsetIndex a = PageIndexDecoder.readOffsetIndex(f.name(), f.file(), (int) pi.offsetIndexOffset(),
              pi.offsetIndexLength());
          assertEquals(e.getPage_locations().size(), a.pageCount());
          for (int i = 0; i < a.pageCount(); i++) {
            assertEquals(e.getPage_locations().get(i).getOffset(), a.offsets()[i]);
            assertEquals(e.getPage_locations().get(i).getCompressed_page_size(), a.compressedPageSizes()[i]);
            assertEquals(e.getPage_locations().get(i).getFirst_row_index(), a.firstRowIndexes()[i]);
          }
          assertEquals(e.isSetUnencoded_byte_array_data_bytes(), a.unencodedByteArrayDataBytes() != null);
        }
        if (pi.hasColumnIndex()) {
          org.apache.parquet.format.ColumnIndex e = Util.readColumnIndex(
              new ByteArrayInputStream(f.file(), (int) pi.columnIndexOffset(), pi.columnIndexLength()));
          ColumnIndex a = PageIndexDecoder.readColumnIndex(f.name(), f.file(), (int) pi.columnIndexOffset(),
              pi.columnIndexLength());
          assertEquals(e.getNull_pages(), toList(a.nullPages()));
          assertEquals(e.getBoundary_order().getValue(), a.boundaryOrder());
          assertEquals(e.getMin_values().size(), a.minValues().size());
          for (int i = 0; i < a.pageCount(); i++) {
            assertArrayEquals(bytes(e.getMin_values().get(i)), a.minValues().get(i));
            assertArrayEquals(bytes(e.getMax_values().get(i)), a.maxValues().get(i));
          }
          if (e.isSetNull_counts()) {
            assertArrayEquals(e.getNull_counts().stream().mapToLong(Long::longValue).toArray(), a.nullCounts());
          } else {
            assertNull(a.nullCounts());
          }
          if (e.isSetDefinition_level_histograms()) {
            assertArrayEquals(e.getDefinition_level_histograms().stream().mapToLong(Long::longValue).toArray(),
                a.definitionLevelHistograms());
          }
        }
      }
    }
  }

  private static List<Boolean> toList(boolean[] b) {
    List<Boolean> out = new ArrayList<>();
    for (boolean x : b) {
      out.add(x);
    }
    return out;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void corpusHasPageIndexesStatisticsAndV2Pages() throws IOException {
    // guards the checks above against vacuous passes
    FileMetadata m = decodeWithStats(CorpusFiles.file("alltypes_tiny_pages.parquet"));
    assertNotNull(m.rowGroups().get(0).column(0).pageIndex());
    assertNotNull(m.rowGroups().get(0).column(0).statistics());
    FileMetadata v2 = decodeWithStats(CorpusFiles.file("datapage_v2.snappy.parquet"));
    assertTrue(v2.rowGroups().get(0).column(0).statistics().hasNullCount());
  }

  static FileMetadata decodeWithStats(Path path) throws IOException {
    Footer f = Footer.of(path);
    return FooterDecoder.decode(f.name(), f.file().length, f.file(), f.offset(), f.length(),
        FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL));
  }
}
