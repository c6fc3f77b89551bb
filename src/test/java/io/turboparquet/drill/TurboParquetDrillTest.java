package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.NullTypeFiles;
import io.turboparquet.testing.OracleColumn.Entry;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.SharedGeneratedFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.exec.physical.rowSet.RowSetReader;
import org.apache.drill.exec.store.dfs.FileSystemConfig;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.ClusterTest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * One embedded drillbit: the same queries through Drill's built-in {@code parquet} format and
 * through {@code turbo-parquet} must give the same column types and the same rows (compared as
 * sorted lists, so the order of row groups and fragments does not matter). Drill's allocator
 * checks for leaks when the cluster shuts down.
 */
public class TurboParquetDrillTest extends ClusterTest {
  /** Flat corpus files the built-in reader reads (checked in the test: it must read them). */
  private static final List<String> CORPUS = List.of(
      "alltypes_plain.parquet", "alltypes_dictionary.parquet", "alltypes_plain.snappy.parquet",
      "alltypes_tiny_pages.parquet", "datapage_v2.snappy.parquet", "int32_decimal.parquet",
      "int64_decimal.parquet", "byte_array_decimal.parquet", "fixed_length_decimal.parquet",
      "binary.parquet", "rle_boolean_encoding.parquet", "int32_with_null_pages.parquet",
      "plain-dict-uncompressed-checksum.parquet", "rle-dict-snappy-checksum.parquet",
      "datapage_v1-snappy-compressed-checksum.parquet", "nan_in_stats.parquet", "lz4_raw_compressed.parquet",
      "delta_binary_packed.parquet", "delta_encoding_required_column.parquet");
  /** Generated files compared (of the flat ones generateAll writes), spread over its families. */
  private static final int GENERATED_FILES = 8;

  private static Path data;

  @BeforeClass
  public static void setup() throws Exception {
    // One fragment per query: rows come back in file order, which screen() relies on.
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    data = dirTestWatcher.getRootDir().toPath();
  }

  @Test
  public void tableFunctionWithoutTheSwitch() throws Exception {
    // The jar registers nothing: a drillbit keeps Drill's reader until the switch is set, and the
    // table function reaches ours without any format entry.
    FileSystemConfig dfs = (FileSystemConfig) cluster.storageRegistry().getStoredConfig("dfs");
    assertTrue(dfs.getFormats().values().stream().noneMatch(f -> f instanceof TurboParquetFormatConfig));
    Path dir = Files.createDirectories(data.resolve("plain"));
    Files.copy(CorpusFiles.file("alltypes_plain.parquet"), dir.resolve("alltypes_plain.parquet"));
    String plain = client.queryBuilder().sql("select id from dfs.`plain/alltypes_plain.parquet`").explainText();
    assertTrue(plain, plain.contains("ParquetGroupScan") && !plain.contains("TurboParquetGroupScan"));
    String turbo = client.queryBuilder()
        .sql("select id from " + table("plain/alltypes_plain.parquet", TurboParquetFormatConfig.NAME)).explainText();
    assertTrue(turbo, turbo.contains("TurboParquetGroupScan"));
  }

  @Test
  public void lineitemLikeFile() throws Exception {
    Path dir = Files.createDirectories(data.resolve("lineitem"));
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 50_000, CompressionCodecName.SNAPPY);
    String t = "lineitem/" + file.path().getFileName();
    // Drill 1.22's built-in reader returns wrong l_extendedprice values (DECIMAL(15,2) on
    // dictionary-encoded INT64) for some rows of this file, e.g. 25279.68 for 45 x a price in
    // [900, 2000): that column is checked against parquet-java instead.
    String allButPrice = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_discount, l_tax, "
        + "l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment";
    same(t, allButPrice);
    assertEquals(t + " (select * schema)", run("select * from " + table(t, "parquet") + " limit 1").schema(),
        run("select * from " + table(t, TurboParquetFormatConfig.NAME) + " limit 1").schema());
    sameAsParquetJava(t, file.path(), "l_extendedprice");
    same(t, "l_orderkey, l_shipdate, l_comment");
    // Implicit columns come from Drill's ColumnExplorer; a column the file lacks is a nullable INT of nulls.
    same(t, "l_orderkey, filename, no_such_column", "l_linenumber = 3");
    // Drill's names are case-insensitive; LIMIT is pushed into the row-group scan.
    same(t, "L_ORDERKEY, l_Comment", "L_LINENUMBER = 1");
    assertEquals(7, run("select * from " + table(t, TurboParquetFormatConfig.NAME) + " limit 7").rows().size());
    same(t, "l_partkey, l_quantity, l_shipmode", "l_shipdate < date '1995-01-01' and l_shipmode = 'MAIL'");
    sameCount(t, "");
    sameCount(t, "where l_discount > 0.05");
    // A whole directory: one scan over several files.
    TestFileGenerator.lineitemLike(dir, 3_000, CompressionCodecName.ZSTD);
    same("lineitem", "l_orderkey, l_tax, l_returnflag, l_comment");
    sameCount("lineitem", "where l_returnflag = 'R'");
    // The plan uses our scan, with Drill's filter pushdown on it.
    String plan = client.queryBuilder().sql("select l_orderkey from " + table(t, TurboParquetFormatConfig.NAME)
        + " where l_orderkey < 100").explainText();
    assertTrue(plan, plan.contains("TurboParquetGroupScan") && plan.contains("filter="));
    // The physical plan round-trips through JSON (TurboParquetGroupScan's @JsonCreator).
    String json = client.queryBuilder().sql("select count(*) from " + table(t, TurboParquetFormatConfig.NAME)
        + " where l_returnflag = 'A'").explainJson();
    assertTrue(json, json.contains("turbo-parquet-scan"));
    long viaPlan = client.queryBuilder().physical(json).singletonLong();
    long viaSql = client.queryBuilder().sql("select count(*) from " + table(t, "parquet")
        + " where l_returnflag = 'A'").singletonLong();
    assertEquals(viaSql, viaPlan);
    // Several fragments, one file each: row-group scans travel to the fragments as JSON.
    client.alterSession("planner.slice_target", 1);
    client.alterSession("planner.width.max_per_node", 2);
    try {
      String parallel = client.queryBuilder().sql("select l_partkey from "
          + table("lineitem", TurboParquetFormatConfig.NAME)).explainText();
      assertTrue(parallel, parallel.contains("UnionExchange"));
      same("lineitem", "l_partkey, l_commitdate, l_shipinstruct");
      sameCount("lineitem", "");
    } finally {
      client.resetSession("planner.slice_target");
      client.resetSession("planner.width.max_per_node");
    }
  }

  /** A one-row-group file's INT64 decimal column read through turbo-parquet, in file order, against parquet-java. */
  private static void sameAsParquetJava(String table, Path file, String column) throws Exception {
    List<Entry> oracle = OracleDigest.readColumn(file, column).entries();
    List<String> expected = oracle.stream()
        .map(e -> java.math.BigDecimal.valueOf((Long) e.value(), 2).toString()).toList();
    List<String> actual = new ArrayList<>();
    for (DirectRowSet batch : client.queryBuilder()
        .sql("select " + column + " from " + table(table, TurboParquetFormatConfig.NAME)).rowSetIterator()) {
      RowSetReader reader = batch.reader();
      while (reader.next()) {
        actual.add(String.valueOf(reader.column(0).getObject()));
      }
      batch.clear();
    }
    assertEquals(table + " " + column + " against parquet-java", expected, actual);
  }

  @Test
  public void generatedFlatFiles() throws Exception {
    List<Path> flat = new ArrayList<>();
    for (GeneratedFile f : SharedGeneratedFiles.linkedInto(data.resolve("generated"))) {
      if (allFlat(f.path())) {
        flat.add(f.path());
      }
    }
    // Every step-th file of the big families, and all the small special files (empty, one row, large pages, NaNs).
    int step = Math.max(1, flat.size() / GENERATED_FILES);
    int compared = 0;
    for (int i = 0; i < flat.size(); i++) {
      String name = flat.get(i).getFileName().toString();
      if (i % step == 0 || name.startsWith("special") || name.startsWith("nan")) {
        compared += compareFile("generated/" + name, flat.get(i), false) ? 1 : 0;
      }
    }
    assertTrue("compared only " + compared + " generated files", compared >= GENERATED_FILES / 2);
  }

  /**
   * With {@code store.parquet.reader.timestamp_micros_as_int64} and {@code time_micros_as_int64} on,
   * Drill reads microsecond columns as BIGINT (values and the filters on them alike): the generated
   * files with such columns, both readers, rows and types and filters.
   */
  @Test
  public void microsecondColumnsAsInt64() throws Exception {
    client.alterSession(ExecConstants.PARQUET_READER_TIMESTAMP_MICROS_AS_INT64, true);
    client.alterSession(ExecConstants.PARQUET_READER_TIME_MICROS_AS_INT64, true);
    try {
      int compared = 0;
      for (GeneratedFile f : SharedGeneratedFiles.linkedInto(data.resolve("micros"))) {
        FileMetadata meta = footer(f.path());
        boolean micros = meta.schema().columns().stream()
            .anyMatch(c -> c.logicalType() != null && c.logicalType().contains("MICROS"));
        if (micros && allFlat(f.path()) && compared < 3) {
          compared += compareFile("micros/" + f.path().getFileName(), f.path(), false) ? 1 : 0;
        }
      }
      assertTrue("compared only " + compared + " files with microsecond columns", compared >= 2);
    } finally {
      client.resetSession(ExecConstants.PARQUET_READER_TIMESTAMP_MICROS_AS_INT64);
      client.resetSession(ExecConstants.PARQUET_READER_TIME_MICROS_AS_INT64);
    }
  }

  @Test
  public void corpusFlatFiles() throws Exception {
    Path dir = Files.createDirectories(data.resolve("corpus"));
    for (String name : CORPUS) {
      Path copy = dir.resolve(name);
      Files.copy(CorpusFiles.file(name), copy);
      assertTrue(name, compareFile("corpus/" + name, copy, true));
    }
  }

  @Test
  public void nullLogicalTypeAsTheBuiltInReader() throws Exception {
    Path dir = Files.createDirectories(data.resolve("nulltype"));
    Path allNull = NullTypeFiles.allNull(dir.resolve("all"), 3000);
    Path withValues = NullTypeFiles.withValues(dir.resolve("values"), 3000);
    for (Path file : List.of(allNull, withValues)) {
      String t = "nulltype/" + dir.relativize(file);
      same(t, "*");
      same(t, "id, nothing, nothing_bin", "id > 100");
      sameCount(t, "where nothing is null");
    }
    // All null, typed as the built-in reader types it (same() compared the types).
    Result ours = run("select nothing from " + table("nulltype/all/null_type.parquet", TurboParquetFormatConfig.NAME));
    assertTrue(ours.schema().toString(), ours.schema().get(0).contains("minor_type: INT")
        && ours.schema().get(0).contains("mode: OPTIONAL"));
    assertEquals(3000, ours.rows().size());
    assertTrue(ours.rows().stream().allMatch(r -> r.equals("null | ")));
  }

  @Test
  public void unknownLogicalTypeMember() throws Exception {
    // parquet-java 1.15 cannot convert an unknown LogicalType member, so Drill's built-in format, which
    // plans from parquet-java's footers, fails on this file. turbo-parquet plans from its own footers,
    // which read the unknown member as no annotation, as the format asks of readers: the file reads as
    // a copy without the annotation (the same pages) reads through the built-in format.
    Path dir = Files.createDirectories(data.resolve("unknowntype"));
    Path file = dir.resolve("unknown-logical-type.parquet");
    Files.copy(Path.of(getClass().getResource("/parquet-testing/unknown-logical-type.parquet").toURI()), file);
    try {
      run("select * from " + table("unknowntype/unknown-logical-type.parquet", "parquet"));
      throw new AssertionError("Drill's built-in format read " + file);
    } catch (org.apache.drill.common.exceptions.UserRemoteException e) {
      // expected: parquet-java's footer conversion failed
    }
    NullTypeFiles.withoutUnknownLogicalTypes(file, dir.resolve("readable.parquet"));
    Result expected = run("select * from " + table("unknowntype/readable.parquet", "parquet"));
    Result ours = run("select * from " + table("unknowntype/unknown-logical-type.parquet", TurboParquetFormatConfig.NAME));
    assertEquals(3, expected.rows().size());
    assertEquals(expected.schema(), ours.schema());
    assertEquals(expected.rows(), ours.rows());
  }

  /**
   * single_nan.parquet (one row, a null; NaN in its statistics) against parquet-java rather than
   * Drill's reader: its dictionary page claims 0
   * bytes uncompressed, which Drill's asynchronous page reader skips racily; now and then its next
   * page header is read from the wrong offset ("Required field 'uncompressed_page_size' was not
   * found"), one query after the same query succeeded.
   */
  @Test
  public void singleNanAsParquetJava() throws Exception {
    Path dir = Files.createDirectories(data.resolve("nan"));
    Path file = Files.copy(CorpusFiles.file("single_nan.parquet"), dir.resolve("single_nan.parquet"));
    List<String> expected = OracleDigest.readColumn(file, "mycol").entries().stream()
        .map(e -> e.definitionLevel() == 0 ? "null" : String.valueOf(e.value())).toList();
    assertEquals(1, expected.size());
    List<List<String>> cells = run("select mycol from " + table("nan/single_nan.parquet",
        TurboParquetFormatConfig.NAME)).cells();
    assertEquals(expected, cells.stream().map(c -> c.get(0)).toList());
  }

  @Test
  public void readErrorsNameTheFile() throws Exception {
    // Drill plans from the footer (intact here); the first page header is garbage, which only the reader sees.
    Path dir = Files.createDirectories(data.resolve("bad"));
    Path bad = dir.resolve("broken_page.parquet");
    byte[] bytes = Files.readAllBytes(CorpusFiles.file("alltypes_plain.parquet"));
    java.util.Arrays.fill(bytes, 4, 24, (byte) 0xff);
    Files.write(bad, bytes);
    failsWith("select * from " + table("bad/broken_page.parquet", TurboParquetFormatConfig.NAME),
        "DATA_READ ERROR: turbo-parquet failed to read");
    failsWith("select * from " + table("bad/broken_page.parquet", TurboParquetFormatConfig.NAME),
        "broken_page.parquet] row group 0 column id");
    // The page's offset in the file, and Drill's error context.
    failsWith("select * from " + table("bad/broken_page.parquet", TurboParquetFormatConfig.NAME), "offset 4");
    failsWith("select * from " + table("bad/broken_page.parquet", TurboParquetFormatConfig.NAME), "Row group: 0");
  }

  /** Compares *, a projection, a filter and count(*) on one file; false if the built-in reader cannot read it. */
  private static boolean compareFile(String table, Path file, boolean required) throws Exception {
    FileQueries q = new FileQueries();
    FileMetadata meta = footer(file);
    List<ColumnDescriptor> columns = meta.schema().columns().stream()
        .filter(c -> c.isFlat() && c.path().size() == 1).toList();
    if (columns.isEmpty()) {
      return false;
    }
    boolean everyColumnFlat = columns.size() == meta.schema().columns().size();
    String all = columns.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", "));
    if (!required && !builtInReads(q, table, all)) {
      // Drill's built-in reader fails on some column types or encodings of a file: compare the columns it reads.
      if (!builtInReads(q, table, "`" + columns.get(0).dottedPath() + "`")) {
        System.out.println(table + ": built-in parquet reader cannot read it; not compared");
        return false;
      }
      List<ColumnDescriptor> readable = readableByBuiltIn(q, table, columns);
      System.out.println(table + ": built-in parquet reader reads " + readable.size() + " of " + columns.size()
          + " columns; compared those");
      if (readable.isEmpty()) {
        return false;
      }
      columns = readable;
      everyColumnFlat = false;
      all = columns.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", "));
      if (!builtInReads(q, table, all)) {
        return false;
      }
    }
    List<ColumnDescriptor> screened = screen(q, table, file, columns);
    if (screened.size() < columns.size()) {
      columns = screened;
      everyColumnFlat = false;
      all = columns.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", "));
    }
    same(q, table, everyColumnFlat ? "*" : all, null);
    List<String> some = new ArrayList<>();
    for (int i = columns.size() - 1; i >= 0 && some.size() < 3; i -= 2) {
      some.add("`" + columns.get(i).dottedPath() + "`");
    }
    same(q, table, String.join(", ", some), null);
    same(q, table, all, filterOn(columns));
    sameCount(table, "");
    sameCount(table, "where " + filterOn(columns));
    return true;
  }

  private static String filterOn(List<ColumnDescriptor> columns) {
    for (ColumnDescriptor c : columns) {
      if (c.logicalType() == null && switch (c.physicalType()) {
        case INT32, INT64, DOUBLE -> true;
        default -> false;
      }) {
        return "`" + c.dottedPath() + "` > 2";
      }
    }
    return "`" + columns.get(0).dottedPath() + "` is not null";
  }

  /**
   * Columns (path, type, repetition) the built-in reader failed to read alone in an earlier file of
   * this class: the generated files share their schemas, and the halving search took a dozen queries
   * per file to find the same column again.
   */
  private static final java.util.Set<String> UNREADABLE_ALONE = new java.util.HashSet<>();

  private static String unreadableKey(ColumnDescriptor c) {
    return c.dottedPath() + " " + c.physicalType() + " " + c.typeLength() + " " + c.logicalType() + " " + c.repetition();
  }

  /**
   * The columns the built-in reader reads: those that it reads alone (a query fails if one of its
   * columns does). First all but the columns it failed on alone in earlier files, if it reads those
   * together and still fails on each of the others alone; else by halving the column list.
   */
  private static List<ColumnDescriptor> readableByBuiltIn(FileQueries q, String table,
                                                          List<ColumnDescriptor> columns) {
    List<ColumnDescriptor> rest = columns.stream().filter(c -> !UNREADABLE_ALONE.contains(unreadableKey(c))).toList();
    if (!rest.isEmpty() && rest.size() < columns.size()
        && builtInReads(q, table, rest.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", ")))
        && columns.stream().filter(c -> !rest.contains(c)).noneMatch(c -> builtInReads(q, table, "`" + c.dottedPath() + "`"))) {
      return rest;
    }
    return readableByHalving(q, table, columns);
  }

  /** The columns the built-in reader reads, found by halving the column list where a query fails. */
  private static List<ColumnDescriptor> readableByHalving(FileQueries q, String table,
                                                          List<ColumnDescriptor> columns) {
    if (columns.isEmpty()
        || builtInReads(q, table, columns.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", ")))) {
      return columns;
    }
    if (columns.size() == 1) {
      UNREADABLE_ALONE.add(unreadableKey(columns.get(0)));
      return List.of();
    }
    List<ColumnDescriptor> out = new ArrayList<>(readableByHalving(q, table, columns.subList(0, columns.size() / 2)));
    out.addAll(readableByHalving(q, table, columns.subList(columns.size() / 2, columns.size())));
    return out;
  }

  private static boolean builtInReads(FileQueries q, String table, String columns) {
    return q.succeeds("select " + columns + " from " + table(table, "parquet"));
  }

  /**
   * The queries of one file's comparison, each run once: the file does not change while it is
   * compared, and the column search, screen() and same() ask some of the same queries (the search
   * retries the full column list; screen() reads what the search found readable; same() repeats
   * screen()'s queries when no column was left out).
   */
  private static final class FileQueries {
    private final java.util.Map<String, Result> results = new java.util.HashMap<>();
    private final java.util.Set<String> failures = new java.util.HashSet<>();

    Result run(String sql) throws Exception {
      Result r = results.get(sql);
      if (r == null) {
        r = TurboParquetDrillTest.run(sql);
        results.put(sql, r);
      }
      return r;
    }

    boolean succeeds(String sql) {
      if (results.containsKey(sql)) {
        return true;
      }
      if (failures.contains(sql)) {
        return false;
      }
      try {
        run(sql);
        return true;
      } catch (Exception e) {
        failures.add(sql);
        return false;
      }
    }
  }

  private static void same(String table, String columns) throws Exception {
    same(table, columns, null);
  }

  private static void same(String table, String columns, String filter) throws Exception {
    same(new FileQueries(), table, columns, filter);
  }

  private static void same(FileQueries q, String table, String columns, String filter) throws Exception {
    String where = filter == null ? "" : " where " + filter;
    Result expected = q.run("select " + columns + " from " + table(table, "parquet") + where);
    Result actual = q.run("select " + columns + " from " + table(table, TurboParquetFormatConfig.NAME) + where);
    String what = table + ": select " + columns + where;
    assertEquals(what + " (schema)", expected.schema(), actual.schema());
    assertEquals(what + " (row count)", expected.rows().size(), actual.rows().size());
    for (int i = 0; i < expected.rows().size(); i++) {
      if (!expected.rows().get(i).equals(actual.rows().get(i))) {
        String[] e = expected.rows().get(i).split(" \\| ", -1);
        String[] a = actual.rows().get(i).split(" \\| ", -1);
        StringBuilder diff = new StringBuilder();
        for (int c = 0; c < Math.min(e.length, a.length); c++) {
          if (!e[c].equals(a[c])) {
            diff.append("\n  column ").append(expected.schema().get(c)).append(": parquet ").append(e[c])
                .append(", turbo-parquet ").append(a[c]);
          }
        }
        throw new AssertionError(table + ": select " + columns.substring(0, Math.min(80, columns.length()))
            + where + ": sorted row " + i + " differs" + diff);
      }
    }
  }

  private static void sameCount(String table, String where) throws Exception {
    long expected = client.queryBuilder()
        .sql("select count(*) from " + table(table, "parquet") + " " + where).singletonLong();
    long actual = client.queryBuilder()
        .sql("select count(*) from " + table(table, TurboParquetFormatConfig.NAME) + " " + where).singletonLong();
    assertEquals(table + ": count(*) " + where, expected, actual);
  }

  private static void failsWith(String sql, String message) {
    try {
      client.queryBuilder().sql(sql).run();
    } catch (Exception e) {
      assertTrue("error of " + sql + ": " + e.getMessage(), String.valueOf(e.getMessage()).contains(message));
      return;
    }
    throw new AssertionError(sql + " should fail with " + message);
  }

  /** Through {@code type}; turbo-parquet with the built-in reader's unsigned types, so that schemas compare. */
  private static String table(String relative, String type) {
    return "table(dfs.`" + relative + "`(type => '" + type + "'"
        + (type.equals(TurboParquetFormatConfig.NAME) ? ", builtInTypes => true" : "") + "))";
  }

  private static Result run(String sql) throws Exception {
    return Result.of(client, sql);
  }

  /**
   * Reads every column through both readers in file order (one fragment) and returns the columns to
   * compare further. Where the two differ, turbo-parquet must agree with parquet-java (else the test
   * fails); such a column is a bug of Drill's built-in reader, reported and left out.
   */
  private static List<ColumnDescriptor> screen(FileQueries q, String table, Path file,
                                               List<ColumnDescriptor> columns) throws Exception {
    String all = columns.stream().map(c -> "`" + c.dottedPath() + "`").collect(Collectors.joining(", "));
    Result expected = q.run("select " + all + " from " + table(table, "parquet"));
    Result actual = q.run("select " + all + " from " + table(table, TurboParquetFormatConfig.NAME));
    assertEquals(table + " (schema)", expected.schema(), actual.schema());
    assertEquals(table + " (row count)", expected.cells().size(), actual.cells().size());
    List<ColumnDescriptor> keep = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      int row = -1;
      for (int r = 0; r < expected.cells().size() && row < 0; r++) {
        if (!expected.cells().get(r).get(c).equals(actual.cells().get(r).get(c))) {
          row = r;
        }
      }
      if (row < 0) {
        keep.add(columns.get(c));
        continue;
      }
      List<String> oracle = oracleTexts(file, columns.get(c));
      List<String> ours = new ArrayList<>();
      for (List<String> cells : actual.cells()) {
        ours.add(cells.get(c));
      }
      assertEquals(table + " column " + columns.get(c).dottedPath() + ": turbo-parquet against parquet-java "
          + "(the built-in reader gave " + expected.cells().get(row).get(c) + " at row " + row + ")", oracle, ours);
      System.out.println(table + ": Drill's built-in reader differs from parquet-java on column "
          + columns.get(c).dottedPath() + " (row " + row + ": " + expected.cells().get(row).get(c) + " instead of "
          + actual.cells().get(row).get(c) + "); turbo-parquet agrees with parquet-java; column left out");
    }
    return keep;
  }

  /** parquet-java's values of a flat column in file order, converted as Drill's reader converts them. */
  private static List<String> oracleTexts(Path file, ColumnDescriptor c) {
    String logical = c.logicalType() == null ? "" : c.logicalType();
    int scale = logical.startsWith("DECIMAL(") ? Integer.parseInt(logical.replaceAll(".*,(\\d+)\\)", "$1")) : -1;
    List<String> out = new ArrayList<>();
    for (Entry e : OracleDigest.readColumn(file, c.dottedPath()).entries()) {
      Object v = e.value();
      if (v == null) {
        out.add("null");
      } else if (scale >= 0) {
        java.math.BigInteger unscaled = v instanceof byte[] b ? new java.math.BigInteger(b)
            : java.math.BigInteger.valueOf(((Number) v).longValue());
        out.add(new java.math.BigDecimal(unscaled, scale).toString());
      } else if (logical.equals("DATE")) {
        out.add(String.valueOf(((Integer) v) * 86_400_000L));
      } else if (logical.startsWith("TIMESTAMP(MICROS") || logical.equals("TIMESTAMP_MICROS")) {
        out.add(String.valueOf(((Long) v) / 1000));
      } else if (logical.startsWith("TIME(MICROS") || logical.equals("TIME_MICROS")) {
        out.add(String.valueOf((int) (((Long) v) / 1000)));
      } else if (v instanceof byte[] b && (logical.equals("STRING") || logical.equals("UTF8") || logical.equals("ENUM"))) {
        out.add(new String(b, java.nio.charset.StandardCharsets.UTF_8));
      } else if (v instanceof byte[] || logical.isEmpty() || logical.startsWith("INT") || logical.startsWith("UINT")
          || logical.startsWith("TIMESTAMP(MILLIS") || logical.startsWith("TIMESTAMP(NANOS")
          || logical.startsWith("TIME(MILLIS") || logical.startsWith("TIME(NANOS")
          || logical.equals("TIMESTAMP_MILLIS") || logical.equals("TIME_MILLIS")) {
        out.add(Result.text(v));
      } else {
        throw new AssertionError("no parquet-java check for column " + c.dottedPath() + " of type "
            + c.physicalType() + " " + logical + " yet");
      }
    }
    return out;
  }

  private static boolean allFlat(Path file) throws IOException {
    return footer(file).schema().columns().stream().allMatch(c -> c.isFlat() && c.path().size() == 1);
  }

  static FileMetadata footer(Path file) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
    try (FSDataInputStream in = fs.open(p)) {
      return FooterReader.read(in, file.toString(), fs.getFileStatus(p).getLen());
    }
  }
}
