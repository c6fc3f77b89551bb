package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnOrder;
import io.turboparquet.format.ColumnStatistics;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.SharedGeneratedFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our footer made into parquet-java's must be what parquet-java reads from the file in everything
 * Drill's metadata layer and nested reader use: schema (types, annotations, levels), key-values,
 * created_by, row groups, and per chunk path, type, codec, encodings, offsets, sizes and statistics
 * (min, max, null count, emptiness) with parquet-java's rules applied, under Drill's default read
 * options and with signed string min/max on. Field ids, which our model drops, are the one difference.
 */
class ParquetJavaFootersTest {
  private static final FooterOptions EVERYTHING = FooterOptions.DEFAULT.withStatistics(
      FooterOptions.ColumnSelector.ALL);

  @TempDir
  Path dir;

  @Test
  void sameAsParquetJavaOnCorpusAndGeneratedFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    for (CorpusFiles.Readability r : CorpusFiles.checkAll()) {
      if (r.readable()) {
        files.add(r.file());
      }
    }
    assertTrue(files.size() > 20, "corpus files readable by parquet-java: " + files.size());
    SharedGeneratedFiles.all().stream().map(GeneratedFile::path).forEach(files::add);
    TestFileGenerator.nestedFiles(dir.resolve("nested")).stream().map(GeneratedFile::path).forEach(files::add);
    ParquetReadOptions drills = ParquetReaderConfig.getDefaultInstance().toReadOptions();
    ParquetReadOptions signedStrings = ParquetReadOptions.builder().useSignedStringMinMax(true).build();
    int withStatistics = 0;
    for (Path file : files) {
      for (ParquetReadOptions options : List.of(drills, signedStrings)) {
        FileMetadata ours = ours(file);
        withStatistics += compare(file, parquetJava(file, options), ParquetJavaFooters.of(ours, options, null), ours);
      }
    }
    assertTrue(withStatistics > 1000, "chunks with min/max compared: " + withStatistics);
  }

  /** WKB has no order (Geospatial.md): a GEOMETRY or GEOGRAPHY chunk's min/max never reach Drill. */
  @Test
  void geospatialBoundsAreWithheld() {
    byte[] bounds = {1, 2};
    ColumnStatistics stats = ColumnStatistics.of(bounds, -1, -1, 0, -1, ColumnStatistics.span(1, 1),
        ColumnStatistics.span(0, 1), null, null, -1);
    for (String logical : new String[] {null, "GEOMETRY", "GEOGRAPHY(OGC:CRS84,SPHERICAL)"}) {
      ColumnDescriptor column = new ColumnDescriptor(0, List.of("g"), PhysicalType.BYTE_ARRAY, 0, Repetition.OPTIONAL,
          1, 0, logical);
      ColumnChunkMeta plain = new ColumnChunkMeta(column, CompressionCodec.UNCOMPRESSED, List.of(Encoding.PLAIN), 1, 10,
          10, 4, -1);
      ColumnChunkMeta chunk = new ColumnChunkMeta(column, plain.coding(), 1, 10, 10, 4, -1, stats, -1, 0, -1, 0, null,
          null);
      assertEquals(logical == null, ParquetJavaFooters.boundsUsable(chunk, ColumnOrder.TYPE_DEFINED), logical);
    }
  }

  @Test
  void projectionKeepsTheNamedColumnsAndTheFirstChunk() throws IOException {
    Path file = TestFileGenerator.lineitemLike(dir, 20_000, org.apache.parquet.hadoop.metadata.CompressionCodecName.SNAPPY,
        256 * 1024).path();
    ParquetReadOptions options = ParquetReaderConfig.getDefaultInstance().toReadOptions();
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.add("L_SHIPDATE");
    ParquetMetadata all = ParquetJavaFooters.of(ours(file), options, null);
    ParquetMetadata some = ParquetJavaFooters.of(ours(file), options, names);
    assertTrue(all.getBlocks().size() > 1);
    assertEquals(all.getBlocks().size(), some.getBlocks().size());
    for (int b = 0; b < all.getBlocks().size(); b++) {
      List<ColumnChunkMetaData> chunks = some.getBlocks().get(b).getColumns();
      assertEquals(List.of("l_orderkey", "l_shipdate"), chunks.stream().map(c -> c.getPath().toDotString()).toList());
      assertEquals(all.getBlocks().get(b).getRowCount(), some.getBlocks().get(b).getRowCount());
      assertEquals(all.getBlocks().get(b).getStartingPos(), some.getBlocks().get(b).getStartingPos());
    }
  }

  /**
   * Compares the two footers, but for the bounds {@link ParquetJavaFooters#boundsUsable} withholds
   * from Drill (of floating columns that may hold NaN); returns how many chunks had min/max statistics.
   */
  private static int compare(Path file, ParquetMetadata expected, ParquetMetadata actual, FileMetadata ours) {
    String f = file.getFileName().toString();
    // Field ids are not in our model (Drill does not use them): the schema is compared without.
    assertEquals(withoutIds(expected.getFileMetaData().getSchema()), withoutIds(actual.getFileMetaData().getSchema()), f);
    assertEquals(expected.getFileMetaData().getSchema().getColumns(), actual.getFileMetaData().getSchema().getColumns(), f);
    for (org.apache.parquet.column.ColumnDescriptor c : expected.getFileMetaData().getSchema().getColumns()) {
      org.apache.parquet.column.ColumnDescriptor a = actual.getFileMetaData().getSchema().getColumnDescription(c.getPath());
      assertEquals(c.getPrimitiveType().getLogicalTypeAnnotation(), a.getPrimitiveType().getLogicalTypeAnnotation(), f);
      assertEquals(c.getPrimitiveType().columnOrder(), a.getPrimitiveType().columnOrder(), f);
    }
    assertEquals(expected.getFileMetaData().getKeyValueMetaData(), actual.getFileMetaData().getKeyValueMetaData(), f);
    assertEquals(expected.getFileMetaData().getCreatedBy(), actual.getFileMetaData().getCreatedBy(), f);
    assertEquals(expected.getBlocks().size(), actual.getBlocks().size(), f);
    int withStatistics = 0;
    int withheld = 0;
    for (int b = 0; b < expected.getBlocks().size(); b++) {
      BlockMetaData e = expected.getBlocks().get(b);
      BlockMetaData a = actual.getBlocks().get(b);
      String where = f + " row group " + b;
      assertEquals(e.getRowCount(), a.getRowCount(), where);
      assertEquals(e.getTotalByteSize(), a.getTotalByteSize(), where);
      assertEquals(e.getStartingPos(), a.getStartingPos(), where);
      assertEquals(e.getCompressedSize(), a.getCompressedSize(), where);
      assertEquals(e.getColumns().size(), a.getColumns().size(), where);
      for (int c = 0; c < e.getColumns().size(); c++) {
        ColumnChunkMetaData ec = e.getColumns().get(c);
        ColumnChunkMetaData ac = a.getColumns().get(c);
        String chunk = where + " column " + ec.getPath();
        assertEquals(ec.getPath(), ac.getPath(), chunk);
        assertEquals(ec.getPrimitiveType().toString().replaceAll(" = \\d+$", ""), ac.getPrimitiveType().toString(), chunk);
        assertEquals(ec.getPrimitiveType().columnOrder(), ac.getPrimitiveType().columnOrder(), chunk);
        assertEquals(ec.getCodec(), ac.getCodec(), chunk);
        assertEquals(ec.getEncodings(), ac.getEncodings(), chunk);
        assertEquals(ec.getFirstDataPageOffset(), ac.getFirstDataPageOffset(), chunk);
        assertEquals(ec.getDictionaryPageOffset(), ac.getDictionaryPageOffset(), chunk);
        assertEquals(ec.getStartingPos(), ac.getStartingPos(), chunk);
        assertEquals(ec.getValueCount(), ac.getValueCount(), chunk);
        assertEquals(ec.getTotalSize(), ac.getTotalSize(), chunk);
        assertEquals(ec.getTotalUncompressedSize(), ac.getTotalUncompressedSize(), chunk);
        Statistics<?> es = ec.getStatistics();
        Statistics<?> as = ac.getStatistics();
        ColumnChunkMeta oc = ours.rowGroups().get(b).column(ours.schema().column(ec.getPath().toDotString()).index());
        if (!ParquetJavaFooters.boundsUsable(oc, ours.columnOrder(oc.column()))) {
          assertTrue(oc.column().physicalType() == PhysicalType.FLOAT || oc.column().physicalType() == PhysicalType.DOUBLE
              || "FLOAT16".equals(oc.column().logicalType())
              || oc.column().isGeospatial(), chunk + ": bounds withheld");
          assertFalse(as.hasNonNullValue(), chunk);
          assertEquals(es.isNumNullsSet(), as.isNumNullsSet(), chunk);
          assertEquals(es.getNumNulls(), as.getNumNulls(), chunk);
          withheld++;
          continue;
        }
        assertArrayEquals(es.getMinBytes(), as.getMinBytes(), chunk); // Statistics.equals compares the type's id too
        assertArrayEquals(es.getMaxBytes(), as.getMaxBytes(), chunk);
        assertEquals(es.isEmpty(), as.isEmpty(), chunk);
        assertEquals(es.hasNonNullValue(), as.hasNonNullValue(), chunk);
        assertEquals(es.isNumNullsSet(), as.isNumNullsSet(), chunk);
        assertEquals(es.getNumNulls(), as.getNumNulls(), chunk);
        if (es.hasNonNullValue()) {
          withStatistics++;
          assertEquals(es.genericGetMin(), as.genericGetMin(), chunk);
          assertEquals(es.genericGetMax(), as.genericGetMax(), chunk);
        }
      }
    }
    assertFalse(f.isEmpty());
    return withStatistics;
  }

  private static String withoutIds(org.apache.parquet.schema.MessageType schema) {
    return schema.toString().replaceAll(" = \\d+;", ";").replaceAll(" = \\d+ \\{", " {");
  }

  private static ParquetMetadata parquetJava(Path file, ParquetReadOptions options) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()), options)) {
      return reader.getFooter();
    }
  }

  private static FileMetadata ours(Path file) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    try (FSDataInputStream in = fs.open(path)) {
      return FooterReader.read(in, path.toString(), fs.getFileStatus(path).getLen(), EVERYTHING);
    }
  }
}
