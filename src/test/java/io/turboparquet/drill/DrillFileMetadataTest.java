package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.OracleColumn;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.TestFileGenerator;
import io.turboparquet.testing.UnsignedFiles;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.JarURLConnection;
import java.math.BigInteger;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.util.JacksonUtils;
import org.apache.drill.exec.serialization.PathSerDe;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V3;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DrillFileMetadata} must give Drill the metadata Drill's own collector makes of the same
 * footer in parquet-java's form ({@link ParquetJavaFooters} and {@code Metadata.getParquetFileMetadata_v4},
 * the path planning took before): for every file of the test resources, the parquet-testing corpus
 * (bad_data aside), Drill's own test files (Drill-written, corrupt dates, old writers) and our
 * generated files, under Drill's default reader settings and under the opposite ones, for all columns
 * (planning) and for one top-level column (run-time pruning). Compared: Drill's JSON of the file
 * (what it writes to its metadata cache: row groups, start, length, row count, host affinity, each
 * column's name, min, max, nulls), the table's column types and the null totals, and, as JSON loses
 * them, each bound's class and value and each column's primitive type.
 */
class DrillFileMetadataTest {
  private static final Field PRIMITIVE;

  static {
    try {
      PRIMITIVE = Metadata_V3.ColumnMetadata_v3.class.getDeclaredField("primitiveType");
      PRIMITIVE.setAccessible(true);
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @TempDir
  Path dir;

  private static final DrillFileMetadata.Typing BUILT_IN = new DrillFileMetadata.Typing(true, false);
  private static final DrillFileMetadata.Typing TURBO = new DrillFileMetadata.Typing(false, false);

  private final FileSystem fs;
  private final ObjectMapper mapper;

  DrillFileMetadataTest() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    // As Drill's Metadata.writeFile sets its mapper up for metadata cache files.
    JsonFactory factory = new JsonFactory();
    factory.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
    SimpleModule module = new SimpleModule();
    module.addSerializer(org.apache.hadoop.fs.Path.class, new PathSerDe.Se());
    module.addSerializer(Metadata_V4.ColumnMetadata_v4.class, new Metadata_V3.ColumnMetadata_v3.Serializer());
    // Drill's serializer writes BINARY and FIXED_LEN_BYTE_ARRAY bounds as bytes, but INT96 ones as
    // beans, which Jackson cannot write: here as bytes too.
    module.addSerializer(Binary.class, new JsonSerializer<Binary>() {
      @Override
      public void serialize(Binary value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeBinary(value.getBytes());
      }
    });
    mapper = JacksonUtils.createJsonMapperBuilder(factory).addModule(module).build();
  }

  @Test
  void sameAsDrillsCollectorOverParquetJavasFooter() throws Exception {
    List<Path> files = new ArrayList<>();
    files.addAll(parquetFiles(Path.of("src/test/resources")));
    files.addAll(parquetFiles(CorpusFiles.dir()));
    files.addAll(drillTestFiles(dir.resolve("drill")));
    files.addAll(generated(dir.resolve("generated")));
    List<ParquetReaderConfig> configs = List.of(ParquetReaderConfig.getDefaultInstance(), opposite());

    int compared = 0;
    int bounds = 0;
    int variantColumns = 0;
    List<String> refused = new ArrayList<>();
    List<String> bothFail = new ArrayList<>();
    List<String> notConvertible = new ArrayList<>();
    for (Path file : files) {
      FileStatus status = fs.getFileStatus(new org.apache.hadoop.fs.Path(file.toUri()));
      FileMetadata footer;
      try {
        footer = footer(status);
      } catch (IOException | RuntimeException e) {
        refused.add(file + ": " + e);
        continue; // our footer reader refuses it (encrypted, corrupt): no metadata either way
      }
      for (ParquetReaderConfig config : configs) {
        for (Set<SchemaPath> interesting : columnSets(footer)) {
          String what = file + " " + config + (interesting == null ? "" : " columns " + interesting);
          ParquetMetadata converted;
          try {
            converted = ParquetJavaFooters.of(footer, config.toReadOptions(), null);
          } catch (Exception e) {
            // The detour's own limit (e.g. a codec id parquet-java has no name for), not Drill's:
            // planning never looks at it, and our metadata is made without it.
            ours(footer, status, config, interesting);
            notConvertible.add(what + ": " + e);
            continue;
          }
          Collected expected;
          try {
            expected = drills(converted, status, config, interesting);
          } catch (Exception e) {
            try {
              ours(footer, status, config, interesting);
            } catch (Exception ours) {
              bothFail.add(what + ": " + e + " / " + ours);
              continue;
            }
            fail(what + ": Drill's collector fails (" + e + "), ours does not");
            return;
          }
          Collected actual = ours(footer, status, config, interesting);
          List<List<String>> variants = variantPaths(footer.schema().root(), new ArrayList<>(), new ArrayList<>());
          if (!variants.isEmpty()) {
            // Drill's collector gives a VARIANT's physical leaves; we give the one column the reader makes.
            variantColumns += checkVariants(what, actual, variants, interesting);
            expected = without(expected, variants);
            actual = without(actual, variants);
          }
          bounds += compare(what, expected, actual);
          compared++;
        }
      }
    }
    System.out.println("DrillFileMetadataTest: " + compared + " comparisons over " + files.size() + " files, "
        + bounds + " columns with bounds; refused by our footer reader: " + refused.size() + " " + refused
        + "; failing both ways: " + bothFail + "; not convertible to parquet-java's footer: " + notConvertible);
    assertTrue(files.size() > 450, "files: " + files.size());
    assertTrue(bounds > 5_000, "columns with bounds compared: " + bounds);
    assertTrue(variantColumns > 200, "VARIANT columns checked: " + variantColumns);
  }

  /** The paths of the VARIANT groups under {@code node}. */
  private static List<List<String>> variantPaths(SchemaNode node, List<String> path, List<List<String>> out) {
    for (SchemaNode child : node.children()) {
      path.add(child.name());
      if (io.turboparquet.scan.VariantColumn.isVariant(child)) {
        out.add(List.copyOf(path));
      } else if (!child.isLeaf()) {
        variantPaths(child, path, out);
      }
      path.remove(path.size() - 1);
    }
    return out;
  }

  private static boolean under(String[] name, List<List<String>> variants) {
    List<String> n = List.of(name);
    return variants.stream().anyMatch(v -> n.size() >= v.size() && n.subList(0, v.size()).equals(v));
  }

  /**
   * Each VARIANT group is one column of its path, typed as the VARCHAR JSON the reader gives (BINARY,
   * UTF8), in every row group that collects it, without bounds or null count, and no column lies
   * under it. Returns the number of (row group, VARIANT) columns checked.
   */
  private static int checkVariants(String what, Collected actual, List<List<String>> variants,
      Set<SchemaPath> interesting) {
    int checked = 0;
    for (List<String> v : variants) {
      String[] name = v.toArray(new String[0]);
      Metadata_V4.ColumnTypeMetadata_v4.Key key = new Metadata_V4.ColumnTypeMetadata_v4.Key(name);
      Metadata_V4.ColumnTypeMetadata_v4 type = actual.types().get(key);
      if (interesting != null && !interesting.contains(SchemaPath.getSimplePath(v.get(0)))) {
        assertEquals(null, type, what + " " + v);
        for (Metadata_V4.RowGroupMetadata_v4 rg : actual.file().getFileMetadata().rowGroups) {
          assertTrue(rg.columns.stream().noneMatch(c -> under(c.name, List.of(v))), what + " " + v);
        }
        continue;
      }
      assertTrue(type != null, what + ": no type for " + v);
      assertEquals(PrimitiveTypeName.BINARY, type.primitiveType, what + " " + v);
      assertEquals(OriginalType.UTF8, type.originalType, what + " " + v);
      assertEquals(Metadata.NULL_COUNT_NOT_EXISTS, actual.file().getTotalNullCountMap().get(key), what + " " + v);
      for (Metadata_V4.ColumnTypeMetadata_v4.Key k : actual.types().keySet()) {
        assertTrue(k.equals(key) || !under(actual.types().get(k).name, List.of(v)), what + ": " + k + " under " + v);
      }
      for (Metadata_V4.RowGroupMetadata_v4 rg : actual.file().getFileMetadata().rowGroups) {
        List<Metadata_V4.ColumnMetadata_v4> mine = rg.columns.stream().filter(c -> under(c.name, List.of(v))).toList();
        assertEquals(1, mine.size(), what + " " + v);
        assertEquals(List.of(name), List.of(mine.get(0).name), what);
        assertEquals(null, mine.get(0).minValue, what);
        assertEquals(null, mine.get(0).maxValue, what);
        assertEquals(Metadata.NULL_COUNT_NOT_EXISTS, (long) mine.get(0).nulls, what);
        checked++;
      }
    }
    return checked;
  }

  /** The metadata with every column under a VARIANT taken out. */
  private static Collected without(Collected c, List<List<String>> variants) {
    Metadata_V4.ParquetFileMetadata_v4 f = c.file().getFileMetadata();
    List<Metadata_V4.RowGroupMetadata_v4> rowGroups = new ArrayList<>();
    for (Metadata_V4.RowGroupMetadata_v4 rg : f.rowGroups) {
      rowGroups.add(new Metadata_V4.RowGroupMetadata_v4(rg.start, rg.length, rg.rowCount, rg.hostAffinity,
          rg.columns.stream().filter(col -> !under(col.name, variants)).toList()));
    }
    Map<Metadata_V4.ColumnTypeMetadata_v4.Key, Long> nulls = new java.util.HashMap<>(c.file().getTotalNullCountMap());
    nulls.keySet().removeIf(k -> !c.types().containsKey(k) || under(c.types().get(k).name, variants));
    Map<Metadata_V4.ColumnTypeMetadata_v4.Key, Metadata_V4.ColumnTypeMetadata_v4> types = new java.util.HashMap<>(
        c.types());
    types.values().removeIf(t -> under(t.name, variants));
    return new Collected(new Metadata_V4.ParquetFileAndRowCountMetadata(
        new Metadata_V4.ParquetFileMetadata_v4(f.path, f.length, rowGroups), nulls, c.file().getFileRowCount()), types);
  }

  /**
   * Typed as turbo-parquet reads them, unsigned integers and FLOAT16 are planned as INT, BIGINT,
   * VARDECIMAL(20,0) and FLOAT4 (Drill's types of the values the reader gives), with bounds equal to
   * the least and greatest value parquet-java reads in each row group (unsigned; NaN left out), and
   * none for a FLOAT16 row group holding NaN. Every other column is as under the built-in typing.
   */
  @Test
  void unsignedAndHalfFloatColumnsArePlannedAsTheyAreRead() throws Exception {
    List<Path> files = new ArrayList<>(UnsignedFiles.write(dir.resolve("unsigned")));
    for (Path p : parquetFiles(Path.of("src/test/resources"))) {
      if (p.getFileName().toString().matches(".*(float16|floating_orders).*")) {
        files.add(p);
      }
    }
    int planned = 0;
    int bounded = 0;
    for (Path file : files) {
      FileStatus status = fs.getFileStatus(new org.apache.hadoop.fs.Path(file.toUri()));
      FileMetadata footer = footer(status);
      ParquetReaderConfig config = ParquetReaderConfig.getDefaultInstance();
      Metadata_V4.ParquetFileMetadata_v4 builtIn = DrillFileMetadata.of(footer, status, fs, config, BUILT_IN).file()
          .getFileMetadata();
      DrillFileMetadata turbo = DrillFileMetadata.of(footer, status, fs, config, TURBO);
      List<OracleColumn> values = OracleDigest.read(file, null);
      for (int leaf = 0; leaf < footer.schema().columns().size(); leaf++) {
        ColumnDescriptor c = footer.schema().columns().get(leaf);
        Metadata_V4.ColumnTypeMetadata_v4 type = turbo.types().get(new Metadata_V4.ColumnTypeMetadata_v4.Key(
            c.path().toArray(new String[0])));
        MinorType minor = ParquetReaderUtility.getMinorType(type.primitiveType, type.originalType);
        MinorType expected = expectedType(c);
        String what = file.getFileName() + " " + c.dottedPath();
        if (expected == null) {
          for (int g = 0; g < builtIn.rowGroups.size(); g++) {
            Metadata_V4.ColumnMetadata_v4 b = builtIn.rowGroups.get(g).columns.get(leaf);
            Metadata_V4.ColumnMetadata_v4 t = turbo.file().getFileMetadata().rowGroups.get(g).columns.get(leaf);
            assertSame(what + " min", b.minValue, t.minValue);
            assertSame(what + " max", b.maxValue, t.maxValue);
          }
          continue;
        }
        planned++;
        assertEquals(expected, minor, what);
        int row = 0;
        for (int g = 0; g < footer.rowGroups().size(); g++) {
          int rows = (int) footer.rowGroups().get(g).numRows();
          List<Comparable<?>> rowGroupValues = new ArrayList<>();
          boolean nan = false;
          for (OracleColumn.Entry e : values.get(leaf).entries().subList(row, row + rows)) {
            if (e.value() != null) {
              Comparable<?> v = planValue(c, e.value());
              nan |= v instanceof Float f && f.isNaN();
              rowGroupValues.add(v);
            }
          }
          row += rows;
          Metadata_V4.ColumnMetadata_v4 t = turbo.file().getFileMetadata().rowGroups.get(g).columns.get(leaf);
          Object min = boundValue(t.minValue);
          Object max = boundValue(t.maxValue);
          if (nan || rowGroupValues.isEmpty()) {
            assertEquals(null, min, what + " row group " + g + ": NaN or no value, no bounds");
            continue;
          }
          if (min == null) {
            continue; // the writer wrote none
          }
          bounded++;
          rowGroupValues.sort(null);
          assertEquals(planValue(rowGroupValues.get(0)), planValue(min), what + " row group " + g + " min");
          assertEquals(planValue(rowGroupValues.get(rowGroupValues.size() - 1)), planValue(max),
              what + " row group " + g + " max");
        }
      }
    }
    assertTrue(planned >= 7, "planned columns: " + planned);
    System.out.println("planned columns " + planned + ", row groups with planned bounds " + bounded);
    assertTrue(bounded >= 20, "row groups with planned bounds: " + bounded);
  }

  /** The Drill type turbo-parquet reads {@code c} as where it differs from the built-in reader's, else null. */
  private static MinorType expectedType(ColumnDescriptor c) {
    String logical = c.logicalType() == null ? "" : c.logicalType().toUpperCase(java.util.Locale.ROOT);
    if (c.isFloat16()) {
      return MinorType.FLOAT4;
    }
    return switch (logical) {
      case "UINT_8", "UINT_16", "INTEGER(8,FALSE)", "INTEGER(16,FALSE)" -> MinorType.INT;
      case "UINT_32", "INTEGER(32,FALSE)" -> MinorType.BIGINT;
      case "UINT_64", "INTEGER(64,FALSE)" -> MinorType.VARDECIMAL;
      default -> null;
    };
  }

  /** parquet-java's value of {@code c} as the planned type's value, compared unsigned. */
  private static Comparable<?> planValue(ColumnDescriptor c, Object v) {
    if (c.isFloat16()) {
      byte[] b = (byte[]) v;
      return io.turboparquet.decode.HalfFloat.toFloat((short) ((b[1] & 0xff) << 8 | b[0] & 0xff));
    }
    return v instanceof Integer i ? BigInteger.valueOf(Integer.toUnsignedLong(i))
        : new BigInteger(Long.toUnsignedString((Long) v));
  }

  /** A bound or a value as one comparable form: integers as BigInteger, floats with -0.0 as 0.0. */
  private static Object planValue(Object v) {
    if (v instanceof Float f) {
      return f == 0 ? 0.0f : f;
    }
    return v instanceof Number n && !(v instanceof BigInteger) ? BigInteger.valueOf(n.longValue()) : v;
  }

  /** A planned bound: Integer, Long, Float, or a VARDECIMAL's two's complement bytes. */
  private static Object boundValue(Object bound) {
    return bound instanceof Binary b ? new BigInteger(b.getBytes()) : bound;
  }

  /** The metadata and types of one file, and the file's row count. */
  private record Collected(Metadata_V4.ParquetFileAndRowCountMetadata file,
      Map<Metadata_V4.ColumnTypeMetadata_v4.Key, Metadata_V4.ColumnTypeMetadata_v4> types) {}

  /** The old path: parquet-java's footer made from ours, collected by Drill. */
  private Collected drills(ParquetMetadata converted, FileStatus status, ParquetReaderConfig config,
      Set<SchemaPath> interesting) throws Exception {
    Metadata_V4.ParquetTableMetadata_v4 table = new Metadata_V4.ParquetTableMetadata_v4();
    Metadata_V4.ParquetFileAndRowCountMetadata file = Metadata.getParquetFileMetadata_v4(table, converted, status,
        fs, interesting == null, interesting != null, interesting, config);
    return new Collected(file, table.getColumnTypeInfoMap());
  }

  private Collected ours(FileMetadata footer, FileStatus status, ParquetReaderConfig config,
      Set<SchemaPath> interesting) throws IOException {
    // Typed as the built-in reader types columns: Drill's collector is the oracle of that typing.
    DrillFileMetadata m = interesting == null ? DrillFileMetadata.of(footer, status, fs, config, BUILT_IN)
        : DrillFileMetadata.of(footer, status, fs, config, BUILT_IN, interesting);
    return new Collected(m.file(), m.types());
  }

  /** Returns the number of columns with bounds compared. */
  private int compare(String what, Collected expected, Collected actual) throws Exception {
    Metadata_V4.ParquetFileMetadata_v4 e = expected.file().getFileMetadata();
    Metadata_V4.ParquetFileMetadata_v4 a = actual.file().getFileMetadata();
    assertEquals(json(e), json(a), what);
    assertEquals(expected.file().getFileRowCount(), actual.file().getFileRowCount(), what);
    assertEquals(json(sorted(expected.file().getTotalNullCountMap())), json(sorted(actual.file().getTotalNullCountMap())),
        what + ": null totals");
    assertEquals(json(sorted(expected.types())), json(sorted(actual.types())), what + ": column types");
    int bounds = 0;
    for (int g = 0; g < e.rowGroups.size(); g++) {
      List<Metadata_V4.ColumnMetadata_v4> ec = e.rowGroups.get(g).columns;
      List<Metadata_V4.ColumnMetadata_v4> ac = a.rowGroups.get(g).columns;
      for (int c = 0; c < ec.size(); c++) {
        String where = what + " row group " + g + " column " + String.join(".", ec.get(c).name);
        assertEquals(PRIMITIVE.get(ec.get(c)), PRIMITIVE.get(ac.get(c)), where);
        assertSame(where + " min", ec.get(c).minValue, ac.get(c).minValue);
        assertSame(where + " max", ec.get(c).maxValue, ac.get(c).maxValue);
        bounds += ec.get(c).minValue != null ? 1 : 0;
      }
    }
    return bounds;
  }

  /** Equal values of the same class (Float.equals tells -0.0 from 0.0; Binary compares bytes). */
  private static void assertSame(String where, Object expected, Object actual) {
    assertEquals(expected == null ? null : expected.getClass(), actual == null ? null : actual.getClass(), where);
    assertTrue(Objects.equals(expected, actual), where + ": " + expected + " != " + actual);
  }

  private String json(Object o) throws IOException {
    return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(o);
  }

  private static <V> Map<String, V> sorted(Map<Metadata_V4.ColumnTypeMetadata_v4.Key, V> map) {
    Map<String, V> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(k.toString(), v));
    assertEquals(map.size(), out.size());
    return out;
  }

  /** All columns (planning), and each file's first top-level column and its DATE columns (run-time pruning). */
  private static List<Set<SchemaPath>> columnSets(FileMetadata footer) {
    List<Set<SchemaPath>> out = new ArrayList<>();
    out.add(null);
    Set<String> roots = new TreeSet<>();
    footer.schema().columns().stream().limit(1).forEach(c -> roots.add(c.path().get(0)));
    footer.schema().columns().stream().filter(c -> "DATE".equals(c.logicalType())).forEach(c -> roots.add(c.path().get(0)));
    if (!roots.isEmpty()) {
      Set<SchemaPath> set = new java.util.HashSet<>();
      roots.forEach(r -> set.add(SchemaPath.getSimplePath(r)));
      out.add(set);
    }
    return out;
  }

  /** Every setting the other way: no date correction, signed string bounds, microseconds kept. */
  private static ParquetReaderConfig opposite() throws ReflectiveOperationException {
    ParquetReaderConfig config = new ParquetReaderConfig(false, false, false, false, true);
    for (String name : List.of("readTimeMicrosAsInt64", "readTimestampMicrosAsInt64")) {
      Field f = ParquetReaderConfig.class.getDeclaredField(name);
      f.setAccessible(true);
      f.setBoolean(config, true); // settable from session options only
    }
    return config;
  }

  private FileMetadata footer(FileStatus status) throws IOException {
    try (FSDataInputStream in = fs.open(status.getPath())) {
      return FooterReader.read(in, status.getPath().toString(), status.getLen(), FooterCache.OPTIONS);
    }
  }

  /**
   * Our generated files: each type (TestFileGenerator.Kind) under each page mode with other null
   * densities, nested shapes, NaN and empty files. One codec: statistics do not depend on it.
   */
  private static List<Path> generated(Path dir) {
    List<Path> out = new ArrayList<>();
    TestFileGenerator.Nulls[] densities = TestFileGenerator.Nulls.values();
    for (TestFileGenerator.Mode mode : TestFileGenerator.Mode.values()) {
      if (mode != TestFileGenerator.Mode.RAW_NAN) {
        TestFileGenerator.Dist dist = mode.name().startsWith("DICT_FALLBACK") ? TestFileGenerator.Dist.FALLBACK
            : mode.ordinal() % 2 == 0 ? TestFileGenerator.Dist.DISTINCT : TestFileGenerator.Dist.FRIENDLY;
        out.add(TestFileGenerator.types(dir, mode, CompressionCodecName.UNCOMPRESSED, dist,
            densities[mode.ordinal() % densities.length], false, TestFileGenerator.TYPES_ROWS, 500 + mode.ordinal())
            .path());
      }
    }
    TestFileGenerator.nestedFiles(dir).stream().map(GeneratedFile::path).forEach(out::add);
    TestFileGenerator.specialFiles(dir).stream().map(GeneratedFile::path).forEach(out::add);
    return out;
  }

  /** The {@code *.parquet} files under {@code root}, recursively, but for bad_data. */
  private static List<Path> parquetFiles(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".parquet") && Files.isRegularFile(p))
          .filter(p -> !root.relativize(p).toString().contains("bad_data")).sorted().toList();
    }
  }

  /** Drill's own test Parquet files, from its tests jar. */
  private static List<Path> drillTestFiles(Path target) throws IOException {
    URL url = DrillFileMetadataTest.class.getClassLoader().getResource("parquet/4203_corrupt_dates/");
    assertTrue(url != null && url.getProtocol().equals("jar"), "Drill's tests jar");
    JarURLConnection connection = (JarURLConnection) url.openConnection();
    connection.setUseCaches(false);
    List<Path> out = new ArrayList<>();
    try (JarFile jar = connection.getJarFile()) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (entry.getName().endsWith(".parquet") && !entry.isDirectory()) {
          Path file = target.resolve(entry.getName());
          Files.createDirectories(file.getParent());
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, file);
          }
          out.add(file);
        }
      }
    }
    return out;
  }
}
