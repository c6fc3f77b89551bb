package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.TestFileGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.exec.physical.rowSet.RowSetReader;
import org.apache.drill.test.ClusterTest;
import org.apache.drill.test.QueryRowSetIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.Type;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Nested columns through {@code turbo-parquet} against Drill's built-in {@code parquet} format in
 * one embedded drillbit: the same schema (names, types and modes down to the nested fields) and the
 * same rows for {@code select *}, each top-level column and projections into nested columns.
 */
public class TurboParquetNestedDrillTest extends ClusterTest {
  private static Path data;

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    data = dirTestWatcher.getRootDir().toPath();
  }

  /** Corpus files with nested columns; Drill's built-in reader reads every one of them (the test checks it). */
  private static final List<String> CORPUS = List.of("nested_lists.snappy.parquet", "nested_maps.snappy.parquet",
      "list_columns.parquet", "null_list.parquet", "nulls.snappy.parquet", "nullable.impala.parquet",
      "nonnullable.impala.parquet", "datapage_v2.snappy.parquet");

  @Test
  public void corpusFiles() throws Exception {
    Path dir = Files.createDirectories(data.resolve("corpus"));
    for (String name : CORPUS) {
      Files.copy(CorpusFiles.file(name), dir.resolve(name));
      compareFile("corpus/" + name, dir.resolve(name), name.startsWith("nullable"));
    }
    // Projections into nested columns: struct fields, list and map elements, deep paths.
    String impala = "corpus/nullable.impala.parquet";
    same(impala, "t.int_array[1] as a, t.int_array_Array[1][0] as b, t.int_map['k2'] as c, t.nested_Struct.a as d");
    // (t.nested_Struct.B[0], t.nested_Struct.c.D[0][0].e and t.nested_Struct.g['foo'] fail in Drill's Project
    // operator's batch validation with the built-in reader.)
    same(impala, "t.nested_Struct.B as x, t.nested_Struct.g as z");
    same(impala, "t.int_Map_Array[0]['k1'] as v, t.id");
    same(impala, "t.nested_struct.c, t.nested_struct.nosuch as n, t.nosuch.x as m");
    same("corpus/nested_maps.snappy.parquet", "t.a['b'] as ab, t.a['a'][1] as aa1, t.b, t.c");
    same("corpus/nested_lists.snappy.parquet", "t.a[0][1] as a01, t.a[1] as a1, t.b");
  }

  @Test
  public void generatedFiles() throws Exception {
    Path dir = Files.createDirectories(data.resolve("generated"));
    // Data pages v1 and v2, dictionary and plain, several codecs (test time: not every combination).
    List<GeneratedFile> files = new ArrayList<>(TestFileGenerator.nestedFiles(dir).subList(0, 2));
    files.add(TestFileGenerator.nestedShapes(dir, CompressionCodecName.SNAPPY, false, true, 1500, 8101));
    files.add(TestFileGenerator.nestedShapes(dir, CompressionCodecName.ZSTD, true, false, 1500, 8102));
    for (int i = 0; i < files.size(); i++) {
      // Every top-level column projected for one file of each schema; select * and count(*) for all.
      compareFile("generated/" + files.get(i).path().getFileName(), files.get(i).path(), i == 0 || i == 3);
    }
    String family = "generated/" + files.get(0).path().getFileName();
    same(family, "t.id, t.`outer`.`inner`.s as s, t.`outer`.a as a, t.int_list[2] as i2, t.int_map['k3'] as k3");
    same(family, "t.list_list[1][0] as l10, t.points[0].x as px, t.points[1] as p1, t.str_list");
    same(family, "t.id, t.int_list", "t.id < 200");
    String shapes = "generated/" + files.get(2).path().getFileName();
    same(shapes, "t.req_struct.a as a, t.structs[0].x as x, t.structs[1].ys[0] as y, t.s_of_l.nums[1] as n");
    same(shapes, "t.m_struct[7].name as nm, t.m_list['k1'][0] as ml, t.legacy.`array` as la, t.legacy_struct");
    same(shapes, "t.tags[0] as t0, t.events[0].codes as c0, t.all_req[0].w[1] as w, t.dates[0] as d, t.decs, t.fixed");
    same(shapes, "t.id, t.events, t.req_struct", "t.req_struct.a > 2");
  }

  @Test
  public void batchesEndAtRecordBoundaries() throws Exception {
    // Small complex batches: each batch of the core must hold whole records, lists crossing no batch.
    Path dir = Files.createDirectories(data.resolve("batches"));
    GeneratedFile f = TestFileGenerator.nestedShapes(dir, CompressionCodecName.UNCOMPRESSED, false, false, 300, 8103);
    String t = "batches/" + f.path().getFileName();
    client.alterSession(ExecConstants.PARQUET_COMPLEX_BATCH_NUM_RECORDS, 7);
    try {
      same(t, "*");
      Result r = run("select * from " + table(t, TurboParquetFormatConfig.NAME));
      assertEquals(300, r.rows.size());
      assertTrue("largest batch " + r.largestBatch, r.largestBatch <= 7);
    } finally {
      client.resetSession(ExecConstants.PARQUET_COMPLEX_BATCH_NUM_RECORDS);
    }
  }

  @Test
  public void newReaderOptionReadsFlatFilesAsNested() throws Exception {
    // store.parquet.use_new_reader sends flat files through Drill's nested reader too (all columns nullable).
    Path dir = Files.createDirectories(data.resolve("newreader"));
    Files.copy(CorpusFiles.file("alltypes_plain.parquet"), dir.resolve("alltypes_plain.parquet"));
    String t = "newreader/alltypes_plain.parquet";
    client.alterSession(ExecConstants.PARQUET_NEW_RECORD_READER, true);
    try {
      same(t, "*");
      same(t, "id, string_col, no_such_column");
    } finally {
      client.resetSession(ExecConstants.PARQUET_NEW_RECORD_READER);
    }
  }

  @Test
  public void badNestedPageFailsClearly() throws Exception {
    // The footer is intact (Drill plans from it); the first page header is garbage.
    Path dir = Files.createDirectories(data.resolve("bad"));
    byte[] bytes = Files.readAllBytes(CorpusFiles.file("nested_lists.snappy.parquet"));
    java.util.Arrays.fill(bytes, 4, 24, (byte) 0xff);
    Files.write(dir.resolve("broken_nested.parquet"), bytes);
    String sql = "select * from " + table("bad/broken_nested.parquet", TurboParquetFormatConfig.NAME);
    try {
      client.queryBuilder().sql(sql).run();
    } catch (Exception e) {
      String message = String.valueOf(e.getMessage());
      assertTrue(message, message.contains("DATA_READ ERROR: turbo-parquet failed to read")
          && message.contains("broken_nested.parquet] row group 0 column a.list.element"));
      return;
    }
    throw new AssertionError(sql + " should fail");
  }

  /** select *, the last and first columns, count(*), and optionally every top-level column in threes. */
  private static void compareFile(String table, Path file, boolean eachColumn) throws Exception {
    assertTrue(table + ": Drill's built-in reader must read it",
        client.queryBuilder().sql("select * from " + table(table, "parquet")).run().succeeded());
    same(table, "*");
    List<String> top = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(
        HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      for (Type field : reader.getFooter().getFileMetaData().getSchema().getFields()) {
        top.add("`" + field.getName() + "`");
      }
    }
    for (int i = 0; eachColumn && i < top.size(); i += 3) {
      same(table, String.join(", ", top.subList(i, Math.min(top.size(), i + 3))));
    }
    same(table, top.get(top.size() - 1) + ", " + top.get(0));
    long expected = client.queryBuilder().sql("select count(*) from " + table(table, "parquet")).singletonLong();
    long actual = client.queryBuilder().sql("select count(*) from " + table(table, TurboParquetFormatConfig.NAME))
        .singletonLong();
    assertEquals(table + ": count(*)", expected, actual);
  }

  private static void same(String table, String columns) throws Exception {
    same(table, columns, null);
  }

  private static void same(String table, String columns, String filter) throws Exception {
    String where = filter == null ? "" : " where " + filter;
    String what = table + ": select " + columns + where;
    Result expected = run("select " + columns + " from " + table(table, "parquet") + " t" + where, what + " (parquet)");
    Result actual = run("select " + columns + " from " + table(table, TurboParquetFormatConfig.NAME) + " t" + where,
        what + " (turbo-parquet)");
    assertEquals(what + " (schema)", expected.schema, actual.schema);
    assertEquals(what + " (row count)", expected.rows.size(), actual.rows.size());
    assertTrue(what + ": no rows to compare", !expected.rows.isEmpty());
    for (int i = 0; i < expected.rows.size(); i++) {
      assertEquals(what + ": sorted row " + i, expected.rows.get(i), actual.rows.get(i));
    }
  }

  static String table(String relative, String type) {
    return "table(dfs.`" + relative + "`(type => '" + type + "'))";
  }

  /** The batch schema (nested fields included), the rows as sorted strings and the largest batch. */
  record Result(String schema, List<String> rows, int largestBatch) {
  }

  private static Result run(String sql, String what) {
    try {
      return run(sql);
    } catch (Exception | AssertionError e) {
      throw new AssertionError(what + ": " + e.getMessage(), e);
    }
  }

  static Result run(String sql) throws Exception {
    String schema = null;
    List<String> rows = new ArrayList<>();
    int largest = 0;
    QueryRowSetIterator batches = client.queryBuilder().sql(sql).rowSetIterator();
    for (DirectRowSet batch : batches) {
      try {
        if (schema == null) {
          schema = batch.container().getSchema().toString();
        }
        largest = Math.max(largest, batch.rowCount());
        RowSetReader reader = batch.reader();
        while (reader.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 0; i < reader.columnCount(); i++) {
            row.append(text(reader.column(i).getObject())).append(" | ");
          }
          rows.add(row.toString());
        }
      } finally {
        batch.clear();
      }
    }
    rows.sort(null);
    return new Result(schema == null ? "" : schema, rows, largest);
  }

  private static String text(Object v) {
    if (v instanceof byte[] b) {
      return HexFormat.of().formatHex(b);
    }
    if (v instanceof List<?> l) {
      List<String> out = new ArrayList<>();
      for (Object o : l) {
        out.add(text(o));
      }
      return out.toString();
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(text(e.getKey())).append('=').append(text(e.getValue())).append(", ");
      }
      return sb.append('}').toString();
    }
    return String.valueOf(v);
  }
}
