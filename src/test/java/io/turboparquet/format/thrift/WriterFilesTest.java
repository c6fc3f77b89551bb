package io.turboparquet.format.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ChunkCoding;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.testing.WriterFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The footer decoder on files of several common writers ({@code src/test/resources/writers/}, from
 * {@code bench/footer_writers.py}): each decodes as parquet-java decodes it ({@link FooterEquivalenceTest#check}),
 * and each file is what its name says, so that the checks cover what they claim: the writer in {@code created_by},
 * the shape the script wrote, statistics where the writer writes them and none in {@code pyarrow-nostats}, page
 * indexes in {@code pyarrow-pageindex}. The scan's values against parquet-java's are checked by
 * {@code CorpusTest}, the fuzzer starts from these files too ({@code FuzzCampaignTest}).
 */
class WriterFilesTest {
  /** The sizes the README's command writes. */
  static final int COLUMNS = 24;
  static final int ROW_GROUPS = 3;
  static final int ROWS_PER_GROUP = 50;

  static Stream<Path> files() {
    return WriterFiles.all().stream();
  }

  @Test
  void everyWriterIsThereAndNothingElse() {
    assertEquals(WriterFiles.WRITERS.stream().sorted().toList(), files().map(WriterFiles::writer).sorted().toList());
  }

  @ParameterizedTest
  @MethodSource("files")
  void decodesAsParquetJavaDoes(Path file) throws IOException {
    FooterEquivalenceTest.check(file);
  }

  @ParameterizedTest
  @MethodSource("files")
  void isWhatItsNameSays(Path file) throws IOException {
    String writer = WriterFiles.writer(file);
    FileMetadata meta = FooterEquivalenceTest.decodeWithStats(file);
    String createdBy = meta.createdBy();
    assertNotNull(createdBy, file.toString());
    String expected = switch (writer.split("-")[0]) {
      case "pyarrow" -> "parquet-cpp-arrow version ";
      case "duckdb" -> "DuckDB version ";
      case "polars" -> "Polars (python) version ";
      case "fastparquet" -> "fastparquet-python version ";
      default -> throw new AssertionError("unknown writer " + writer);
    };
    assertTrue(createdBy.startsWith(expected), file + ": created_by " + createdBy);

    assertEquals(COLUMNS, meta.schema().columns().size(), file.toString());
    assertEquals(ROW_GROUPS, meta.rowGroups().size(), file.toString());
    assertEquals((long) ROW_GROUPS * ROWS_PER_GROUP, meta.numRows(), file.toString());
    Set<PhysicalType> types = EnumSet.noneOf(PhysicalType.class);
    meta.schema().columns().forEach(c -> types.add(c.physicalType()));
    Set<PhysicalType> expectedTypes = writer.equals("pyarrow-strings") ? EnumSet.of(PhysicalType.BYTE_ARRAY)
        : EnumSet.of(PhysicalType.INT64, PhysicalType.BYTE_ARRAY, PhysicalType.FLOAT);
    assertEquals(expectedTypes, types, file.toString());

    boolean anyNulls = false;
    for (RowGroupMeta rg : meta.rowGroups()) {
      assertEquals(ROWS_PER_GROUP, rg.numRows(), file.toString());
      for (ColumnChunkMeta chunk : rg.columns()) {
        String where = file + " rg " + rg.index() + " " + chunk.column();
        ColumnStatistics stats = chunk.statistics();
        if (writer.equals("pyarrow-nostats")) {
          assertNull(stats, where);
          continue;
        }
        assertNotNull(stats, where);
        assertTrue(stats.hasNullCount(), where);
        assertTrue((stats.minValue() != null || stats.min() != null)
            && (stats.maxValue() != null || stats.max() != null), where + ": min and max");
        anyNulls |= stats.nullCount() > 0;
      }
    }
    assertTrue(anyNulls || writer.equals("pyarrow-nostats"), file + ": some column holds nulls");
  }

  /** Chunks that repeat a coding (codec, encodings, encoding stats) hold one instance of it; the others differ. */
  @ParameterizedTest
  @MethodSource("files")
  void chunksShareTheirCoding(Path file) throws IOException {
    FileMetadata meta = FooterEquivalenceTest.decodeWithStats(file);
    List<ChunkCoding> distinct = new ArrayList<>();
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (ColumnChunkMeta chunk : rg.columns()) {
        ChunkCoding c = chunk.coding();
        int at = distinct.indexOf(c);
        if (at < 0) {
          distinct.add(c);
        } else {
          assertSame(distinct.get(at), c, file + " rg " + rg.index() + " " + chunk.column());
        }
      }
    }
    assertTrue(distinct.size() <= 8, file + ": " + distinct);
    // The float column f2 as each writer codes it (the encodings as parquet-java lists them are compared in check)
    String writer = WriterFiles.writer(file);
    if (!writer.equals("pyarrow-strings")) {
      ChunkCoding f2 = meta.rowGroups().get(0).column(2).coding();
      assertEquals(writer.equals("duckdb") || writer.equals("polars") || writer.equals("fastparquet"),
          f2.encodingStats() == null || !f2.encodingStats().dataPagesAllDictionary(), file + ": " + f2);
      assertEquals(f2.codec().ordinal(), f2.codecId(), file.toString());
      assertFalse(f2.unknownEncodings(), file.toString());
    }
  }

  /** Page indexes where the writer writes them; the decoder itself is compared in {@link #decodesAsParquetJavaDoes}. */
  @ParameterizedTest
  @MethodSource("files")
  void pageIndexesAsTheWriterWritesThem(Path file) throws IOException {
    String writer = WriterFiles.writer(file);
    // pyarrow writes them when asked; polars by default; DuckDB and fastparquet do not
    boolean expected = writer.equals("pyarrow-pageindex") || writer.equals("polars");
    FileMetadata meta = FooterEquivalenceTest.decodeWithStats(file);
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (ColumnChunkMeta chunk : rg.columns()) {
        String where = file + " rg " + rg.index() + " " + chunk.column();
        if (expected) {
          assertNotNull(chunk.pageIndex(), where);
          assertTrue(chunk.pageIndex().hasOffsetIndex() && chunk.pageIndex().hasColumnIndex(), where);
        } else {
          assertNull(chunk.pageIndex(), where);
        }
      }
    }
  }

  /** The same facts from parquet-java's Thrift classes, so that a decoder dropping them cannot hide it. */
  @Test
  void statisticsAndPageIndexesAsParquetJavaSeesThem() throws IOException {
    for (String writer : List.of("pyarrow", "pyarrow-nostats", "pyarrow-pageindex")) {
      Path file = WriterFiles.dir().resolve(writer + ".parquet");
      FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
      FileMetaData thrift = Util.readFileMetaData(new ByteArrayInputStream(f.file(), f.offset(), f.length()));
      for (RowGroup rg : thrift.getRow_groups()) {
        for (ColumnChunk c : rg.getColumns()) {
          assertEquals(!writer.equals("pyarrow-nostats"), c.getMeta_data().isSetStatistics(), file.toString());
          assertEquals(writer.equals("pyarrow-pageindex"), c.isSetColumn_index_offset(), file.toString());
          assertEquals(writer.equals("pyarrow-pageindex"), c.isSetOffset_index_offset(), file.toString());
        }
      }
      assertFalse(thrift.getRow_groups().isEmpty());
    }
  }
}
