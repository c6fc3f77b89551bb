package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanPools;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.TestFileGenerator;
import io.turboparquet.testing.WriterFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turbo-parquet head}: rows assembled as parquet-java's record reader assembles them (its
 * example Group model, leaves through the same {@link ValueText}), values against files whose
 * values are known, reads bounded by -n, and usage errors.
 */
class HeadTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROWS = 50;

  @TempDir
  static Path tmp;

  // ------------------------------------------------------------------------------------- running head

  private static List<String> head(Path file, long n, List<String> columns) throws IOException {
    return head(file, n, columns, new ScanMetrics());
  }

  private static List<String> head(Path file, long n, List<String> columns, ScanMetrics metrics) throws IOException {
    FileSystem fs = FileSystem.newInstance(file.toUri(), new Configuration());
    fs = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    ScanOptions options = Head.options(n);
    TrackingBufferSource buffers = new TrackingBufferSource();
    List<String> out = new ArrayList<>();
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(fs, options, buffers, pools.scanPool(), pools.decodePool(), metrics);
      Head.rows(context, List.of(fs.getFileStatus(new org.apache.hadoop.fs.Path(file.toUri()))), columns, n,
          out::add);
    }
    assertEquals(0, buffers.outstanding(), "head leaked buffers");
    return out;
  }

  private static List<String> cli(String... args) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Main.run(args, out));
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
  }

  private static FileMetadata footer(Path file) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    try (var in = fs.open(new org.apache.hadoop.fs.Path(file.toUri()))) {
      return FooterReader.read(in, file.toString(), Files.size(file));
    }
  }

  // ------------------------------------------------------------------------------------- 1. the oracle

  /**
   * Row {@code g} rendered from parquet-java's record assembly: the same LIST, MAP and group rules
   * as {@link RowRenderer}, written against parquet-java's schema and Group API; leaves through
   * {@link ValueText}.
   */
  private static final class Oracle {
    private final FileMetadata meta;

    Oracle(FileMetadata meta) {
      this.meta = meta;
    }

    String row(Group g) {
      StringBuilder out = new StringBuilder();
      object(g, g.getType(), List.of(), out);
      return out.toString();
    }

    private void object(Group g, GroupType t, List<String> path, StringBuilder out) {
      out.append('{');
      for (int i = 0; i < t.getFieldCount(); i++) {
        if (i > 0) {
          out.append(", ");
        }
        Json.string(out, t.getType(i).getName());
        out.append(": ");
        field(g, t, i, path, out);
      }
      out.append('}');
    }

    private void field(Group parent, GroupType t, int i, List<String> path, StringBuilder out) {
      Type f = t.getType(i);
      int count = parent.getFieldRepetitionCount(i);
      if (f.isRepetition(Type.Repetition.REPEATED)) {
        out.append('[');
        for (int k = 0; k < count; k++) {
          out.append(k > 0 ? ", " : "");
          element(parent, t, i, k, path, out);
        }
        out.append(']');
      } else if (count == 0) {
        out.append("null");
      } else {
        element(parent, t, i, 0, path, out);
      }
    }

    private void element(Group parent, GroupType t, int i, int k, List<String> path, StringBuilder out) {
      Type f = t.getType(i);
      List<String> here = child(path, f);
      if (f.isPrimitive()) {
        leaf(parent, i, k, here, out);
        return;
      }
      Group g = parent.getGroup(i, k);
      GroupType gt = f.asGroupType();
      String annotation = f.getLogicalTypeAnnotation() == null ? "" : f.getLogicalTypeAnnotation().toString();
      boolean single = gt.getFieldCount() == 1 && gt.getType(0).isRepetition(Type.Repetition.REPEATED);
      if (annotation.startsWith("LIST") && single) {
        Type r = gt.getType(0);
        boolean threeLevel = !r.isPrimitive() && r.asGroupType().getFieldCount() == 1 && !r.getName().equals("array")
            && !r.getName().equals(f.getName() + "_tuple");
        out.append('[');
        for (int e = 0; e < g.getFieldRepetitionCount(0); e++) {
          out.append(e > 0 ? ", " : "");
          if (threeLevel) {
            field(g.getGroup(0, e), r.asGroupType(), 0, child(here, r), out);
          } else {
            element(g, gt, 0, e, here, out);
          }
        }
        out.append(']');
        return;
      }
      if (annotation.startsWith("MAP") && single && !gt.getType(0).isPrimitive()
          && gt.getType(0).asGroupType().getFieldCount() <= 2 && gt.getType(0).asGroupType().getType(0).isPrimitive()) {
        GroupType kvType = gt.getType(0).asGroupType();
        List<String> kvPath = child(here, kvType);
        ColumnDescriptor key = meta.schema().column(String.join(".", child(kvPath, kvType.getType(0))));
        boolean object = new ValueText(key).isString();
        out.append(object ? '{' : '[');
        for (int e = 0; e < g.getFieldRepetitionCount(0); e++) {
          out.append(e > 0 ? ", " : "");
          Group kv = g.getGroup(0, e);
          out.append(object ? "" : "{\"key\": ");
          leaf(kv, 0, 0, child(kvPath, kvType.getType(0)), out);
          out.append(object ? ": " : ", \"value\": ");
          if (kvType.getFieldCount() == 2) {
            field(kv, kvType, 1, kvPath, out);
          } else {
            out.append("null");
          }
          out.append(object ? "" : "}");
        }
        out.append(object ? '}' : ']');
        return;
      }
      object(g, gt, here, out);
    }

    private static List<String> child(List<String> path, Type f) {
      List<String> out = new ArrayList<>(path);
      out.add(f.getName());
      return out;
    }

    private void leaf(Group g, int i, int k, List<String> path, StringBuilder out) {
      ColumnDescriptor c = meta.schema().column(String.join(".", path));
      byte[] b = switch (c.physicalType()) {
        case BOOLEAN -> new byte[] {(byte) (g.getBoolean(i, k) ? 1 : 0)};
        case INT32 -> le(4).putInt(g.getInteger(i, k)).array();
        case INT64 -> le(8).putLong(g.getLong(i, k)).array();
        case FLOAT -> le(4).putInt(Float.floatToRawIntBits(g.getFloat(i, k))).array();
        case DOUBLE -> le(8).putLong(Double.doubleToRawLongBits(g.getDouble(i, k))).array();
        case INT96 -> g.getInt96(i, k).getBytes();
        case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> g.getBinary(i, k).getBytes();
      };
      new ValueText(c).append(out, b, 0, b.length);
    }

    private static ByteBuffer le(int n) {
      return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  /** Why {@link #oracle} last returned null. */
  private static String why;

  /** parquet-java's first {@code n} rows, or null when it does not read the file. */
  private static List<String> oracle(Path file, int n) {
    try {
      Oracle oracle = new Oracle(footer(file));
      List<String> rows = new ArrayList<>();
      try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(),
          new org.apache.hadoop.fs.Path(file.toUri())).withConf(new Configuration()).build()) {
        Group g;
        while (rows.size() < n && (g = r.read()) != null) {
          rows.add(oracle.row(g));
        }
      }
      return rows;
    } catch (Exception | LinkageError e) {
      why = e.toString();
      return null;
    }
  }

  private static void assertSameRows(Path file, List<String> expected, List<String> actual) throws IOException {
    assertEquals(expected.size(), actual.size(), file + ": rows");
    for (int i = 0; i < expected.size(); i++) {
      JsonNode want = JSON.readTree(expected.get(i));
      JsonNode got = JSON.readTree(actual.get(i)); // also: head's line is JSON
      assertEquals(want, got, file.getFileName() + " row " + i + "\n want " + expected.get(i) + "\n got  "
          + actual.get(i));
    }
  }

  private static List<Path> listed(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
  }

  @Test
  void rowsAreThoseParquetJavasRecordReaderAssembles() throws IOException {
    List<Path> files = new ArrayList<>(CorpusFiles.goodFiles());
    files.addAll(WriterFiles.all());
    files.addAll(listed(CorpusFiles.dir().resolve("geospatial")));
    files.addAll(listed(CorpusFiles.dir().resolve("shredded_variant")));
    Path dir = Files.createDirectories(tmp.resolve("oracle"));
    files.add(TestFileGenerator.nestedShapes(dir, CompressionCodecName.SNAPPY, false, true, 400, 11).path());
    files.add(TestFileGenerator.nestedShapes(dir, CompressionCodecName.UNCOMPRESSED, true, false, 400, 12).path());
    files.add(TestFileGenerator.nested(dir, CompressionCodecName.SNAPPY, false, true, false, 300, 7001).path());
    files.add(TestFileGenerator.types(dir, TestFileGenerator.Mode.PLAIN_V1, CompressionCodecName.UNCOMPRESSED,
        TestFileGenerator.Dist.DISTINCT, TestFileGenerator.Nulls.P50, false, 200, 5).path());
    List<String> compared = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Path file : files) {
      List<String> expected = oracle(file, ROWS);
      if (expected == null) {
        skipped.add(file.getFileName() + " (" + why + ")");
        continue;
      }
      assertSameRows(file, expected, head(file, ROWS, null));
      compared.add(file.getFileName().toString());
    }
    // Every file of the corpus's top level, every writer's and the generated ones; parquet-java 1.15
    // reads neither GEOMETRY nor VARIANT footers (their values are checked below and by
    // GeospatialTest), so those folders are compared only where it can.
    int required = CorpusFiles.goodFiles().size() + WriterFiles.all().size() + 4;
    assertTrue(compared.size() >= required, "compared " + compared + "; parquet-java could not read " + skipped);
    assertTrue(compared.containsAll(List.of("nested_lists.snappy.parquet", "nested_maps.snappy.parquet",
        "nullable.impala.parquet", "nonnullable.impala.parquet", "list_columns.parquet", "null_list.parquet",
        "pyarrow.parquet", "nested_shapes_snappy_v1_dict.parquet")), compared.toString());
  }

  @Test
  void projectedColumnsKeepTheirGroups() throws IOException {
    Path file = CorpusFiles.file("nullable.impala.parquet");
    List<String> all = head(file, 10, null);
    List<String> some = head(file, 10, List.of("id", "int_map"));
    assertEquals(all.size(), some.size());
    for (int i = 0; i < all.size(); i++) {
      JsonNode row = JSON.readTree(all.get(i));
      JsonNode projected = JSON.readTree(some.get(i));
      assertEquals(List.of("id", "int_map"), iterable(projected.fieldNames()));
      assertEquals(row.get("id"), projected.get("id"));
      assertEquals(row.get("int_map"), projected.get("int_map"));
    }
  }

  private static List<String> iterable(java.util.Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  // ------------------------------------------------------------------------------------- 2. known values

  @Test
  void alltypesPlainHasItsKnownValues() throws IOException {
    List<String> rows = head(CorpusFiles.file("alltypes_plain.parquet"), 100, null);
    assertEquals(8, rows.size());
    int[] ids = {4, 5, 6, 7, 2, 3, 0, 1};
    String[] timestamps = {"2009-03-01T00:00:00", "2009-03-01T00:01:00", "2009-04-01T00:00:00",
        "2009-04-01T00:01:00", "2009-02-01T00:00:00", "2009-02-01T00:01:00", "2009-01-01T00:00:00",
        "2009-01-01T00:01:00"};
    String[] dates = {"03/01/09", "03/01/09", "04/01/09", "04/01/09", "02/01/09", "02/01/09", "01/01/09",
        "01/01/09"};
    for (int i = 0; i < 8; i++) {
      JsonNode row = JSON.readTree(rows.get(i));
      assertEquals(ids[i], row.get("id").intValue());
      assertEquals(i % 2 == 0, row.get("bool_col").booleanValue());
      // INT96: UTC, to the nanosecond.
      assertEquals(timestamps[i] + ".000000000Z", row.get("timestamp_col").textValue());
      // date_string_col and string_col are BYTE_ARRAY without an annotation: base64.
      assertEquals(dates[i], new String(Base64.getDecoder().decode(row.get("date_string_col").textValue()),
          StandardCharsets.US_ASCII));
      assertEquals(i % 2 == 0 ? "0" : "1", new String(Base64.getDecoder().decode(row.get("string_col").textValue()),
          StandardCharsets.US_ASCII));
      assertEquals(i % 2 == 0 ? "0.0" : "1.1", row.get("float_col").toString());
      assertEquals(i % 2 == 0 ? "0.0" : "10.1", row.get("double_col").toString());
      assertEquals(i % 2 == 0 ? 0 : 10, row.get("bigint_col").longValue());
    }
  }

  @Test
  void decimalsOfEveryPhysicalTypeAreExact() throws IOException {
    for (String name : List.of("int32_decimal.parquet", "int64_decimal.parquet", "fixed_length_decimal.parquet",
        "byte_array_decimal.parquet")) {
      List<String> rows = head(CorpusFiles.file(name), 100, null);
      assertEquals(24, rows.size(), name);
      for (int i = 0; i < 24; i++) {
        assertEquals("{\"value\": " + (i + 1) + ".00}", rows.get(i), name + " row " + i);
      }
    }
  }

  @Test
  void geometriesReadAsTheirWktColumnSpellsThem() throws IOException {
    int checked = 0;
    for (Path file : listed(CorpusFiles.dir().resolve("geospatial"))) {
      FileMetadata meta = footer(file);
      if (meta.schema().column("wkt") == null) {
        continue;
      }
      String geo = meta.schema().columns().stream()
          .filter(c -> c.logicalType() != null && (c.logicalType().startsWith("GEOMETRY")
              || c.logicalType().startsWith("GEOGRAPHY"))).findFirst().orElseThrow().dottedPath();
      for (String line : head(file, 1000, null)) {
        JsonNode row = JSON.readTree(line);
        if (row.get(geo).isNull()) {
          assertTrue(row.get("wkt").isNull(), line);
          continue;
        }
        String wkt = row.get("wkt").textValue().replace("nan", "NaN"); // Java spells NaN so
        assertEquals(wkt, row.get(geo).textValue(), file.getFileName() + ": " + line);
        checked++;
      }
    }
    assertTrue(checked > 20, "checked " + checked);
  }

  private static final String TYPES_SCHEMA = """
      message types {
        required int64 u64 (INTEGER(64,false));
        required int32 u32 (INTEGER(32,false));
        required int32 u16 (INTEGER(16,false));
        required int32 u8 (UINT_8);
        required int32 i8 (INTEGER(8,true));
        required fixed_len_byte_array(16) id (UUID);
        required int32 t_ms (TIME(MILLIS,true));
        required int64 t_us (TIME(MICROS,false));
        required int64 t_ns (TIME(NANOS,false));
        required int64 ts_ms_utc (TIMESTAMP(MILLIS,true));
        required int64 ts_ms_local (TIMESTAMP(MILLIS,false));
        required int64 ts_us_utc (TIMESTAMP(MICROS,true));
        required int64 ts_us_local (TIMESTAMP(MICROS,false));
        required int64 ts_ns_utc (TIMESTAMP(NANOS,true));
        required int64 ts_ns_local (TIMESTAMP(NANOS,false));
        required fixed_len_byte_array(12) iv (INTERVAL);
        optional fixed_len_byte_array(2) f16 (FLOAT16);
        required int32 d (DATE);
        required binary j (JSON);
        required binary e (ENUM);
        required binary bson (BSON);
        required binary raw;
        optional double dbl;
        optional float flt;
        required int32 dec (DECIMAL(9,2));
        required binary s (STRING);
      }
      """;

  /** Writes the types file of {@link #TYPES_SCHEMA}: row 0 and row 1 of known values, then the FLOAT16 specials. */
  private static Path typesFile() throws IOException {
    Path file = tmp.resolve("head_types.parquet");
    if (Files.exists(file)) {
      return file;
    }
    MessageType schema = MessageTypeParser.parseMessageType(TYPES_SCHEMA);
    SimpleGroupFactory f = new SimpleGroupFactory(schema);
    short[] halfs = {0x3c00, (short) 0xc000, 0x7e00, 0x7c00, (short) 0xfc00, 0x0001, 0x7bff, (short) 0x8000, 0x3555};
    double[] doubles = {1.5, -0.25, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300, 0.1, -0.0,
        2};
    long noon = (12 * 3600 + 34 * 60 + 56) * 1000L + 789; // 12:34:56.789
    long instant = 1_706_704_496_789L; // 2024-01-31T12:34:56.789Z
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema).build()) {
      for (int row = 0; row < halfs.length; row++) {
        Group g = f.newGroup();
        boolean first = row == 0;
        g.add("u64", first ? -1L : 5L);
        g.add("u32", first ? -1 : 7);
        g.add("u16", first ? 65535 : 1);
        g.add("u8", first ? 255 : 0);
        g.add("i8", first ? -128 : 127);
        g.add("id", Binary.fromConstantByteArray(first
            ? new byte[] {0x12, 0x34, 0x56, 0x78, (byte) 0x9a, (byte) 0xbc, (byte) 0xde, (byte) 0xf0, 0x01, 0x23,
                0x45, 0x67, (byte) 0x89, (byte) 0xab, (byte) 0xcd, (byte) 0xef} : new byte[16]));
        g.add("t_ms", (int) (first ? noon : 0));
        g.add("t_us", first ? noon * 1000 + 123 : 1);
        g.add("t_ns", first ? noon * 1_000_000 + 123_456 : 86_399_999_999_999L);
        long ms = first ? instant : -1;
        g.add("ts_ms_utc", ms);
        g.add("ts_ms_local", ms);
        g.add("ts_us_utc", ms * 1000 + (first ? 1 : 0));
        g.add("ts_us_local", ms * 1000 + (first ? 1 : 0));
        g.add("ts_ns_utc", ms * 1_000_000 + (first ? 2 : 0));
        g.add("ts_ns_local", ms * 1_000_000 + (first ? 2 : 0));
        g.add("iv", Binary.fromConstantByteArray(ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(first ? 14 : -1).putInt(first ? 3 : 0).putInt(first ? 86_400_001 : 0).array()));
        if (row != 1) {
          g.add("f16", Binary.fromConstantByteArray(new byte[] {(byte) halfs[row], (byte) (halfs[row] >> 8)}));
        }
        g.add("d", first ? 19753 : -1); // 2024-01-31, 1969-12-31
        g.add("j", "{\"a\": [1, \"x\"]}");
        g.add("e", "RED");
        g.add("bson", Binary.fromConstantByteArray(new byte[] {5, 0, 0, 0, 0}));
        g.add("raw", Binary.fromConstantByteArray(new byte[] {(byte) 0xff, 0, 1}));
        if (row != 1) {
          g.add("dbl", doubles[row]);
          g.add("flt", (float) doubles[row]);
        }
        g.add("dec", first ? -12345 : 5);
        g.add("s", first ? "tab\there \"quoted\" é ✓" : "");
        w.write(g);
      }
    }
    return file;
  }

  @Test
  void logicalTypesRenderAsAPersonReadsThem() throws IOException {
    List<String> rows = head(typesFile(), 100, null);
    assertEquals(9, rows.size());
    JsonNode r0 = JSON.readTree(rows.get(0));
    assertEquals("18446744073709551615", r0.get("u64").toString());
    assertEquals("4294967295", r0.get("u32").toString());
    assertEquals("65535", r0.get("u16").toString());
    assertEquals("255", r0.get("u8").toString());
    assertEquals("-128", r0.get("i8").toString());
    assertEquals("12345678-9abc-def0-0123-456789abcdef", r0.get("id").textValue());
    assertEquals("12:34:56.789", r0.get("t_ms").textValue());
    assertEquals("12:34:56.789123", r0.get("t_us").textValue());
    assertEquals("12:34:56.789123456", r0.get("t_ns").textValue());
    assertEquals("2024-01-31T12:34:56.789Z", r0.get("ts_ms_utc").textValue());
    assertEquals("2024-01-31T12:34:56.789", r0.get("ts_ms_local").textValue());
    assertEquals("2024-01-31T12:34:56.789001Z", r0.get("ts_us_utc").textValue());
    assertEquals("2024-01-31T12:34:56.789001", r0.get("ts_us_local").textValue());
    assertEquals("2024-01-31T12:34:56.789000002Z", r0.get("ts_ns_utc").textValue());
    assertEquals("2024-01-31T12:34:56.789000002", r0.get("ts_ns_local").textValue());
    assertEquals("{\"months\":14,\"days\":3,\"millis\":86400001}", r0.get("iv").toString());
    assertEquals("2024-01-31", r0.get("d").textValue());
    assertEquals("{\"a\": [1, \"x\"]}", r0.get("j").textValue()); // the JSON text itself, not parsed
    assertEquals("RED", r0.get("e").textValue());
    assertEquals(Base64.getEncoder().encodeToString(new byte[] {5, 0, 0, 0, 0}), r0.get("bson").textValue());
    assertEquals("/wAB", r0.get("raw").textValue());
    assertEquals("-123.45", r0.get("dec").toString());
    assertTrue(rows.get(0).contains("\"dec\": -123.45,"), rows.get(0));
    assertEquals("tab\there \"quoted\" é ✓", r0.get("s").textValue());

    JsonNode r1 = JSON.readTree(rows.get(1));
    assertEquals("5", r1.get("u64").toString());
    assertEquals("00000000-0000-0000-0000-000000000000", r1.get("id").textValue());
    assertEquals("00:00:00.000", r1.get("t_ms").textValue());
    assertEquals("00:00:00.000001", r1.get("t_us").textValue());
    assertEquals("23:59:59.999999999", r1.get("t_ns").textValue());
    // One unit before the epoch: the fraction counts up from the second before.
    assertEquals("1969-12-31T23:59:59.999Z", r1.get("ts_ms_utc").textValue());
    assertEquals("1969-12-31T23:59:59.999000", r1.get("ts_us_local").textValue());
    assertEquals("1969-12-31T23:59:59.999000000Z", r1.get("ts_ns_utc").textValue());
    assertEquals("{\"months\":4294967295,\"days\":0,\"millis\":0}", r1.get("iv").toString());
    assertEquals("1969-12-31", r1.get("d").textValue());
    assertTrue(r1.get("f16").isNull());
    assertTrue(r1.get("dbl").isNull());
    assertEquals("0.05", r1.get("dec").toString());
    assertEquals("", r1.get("s").textValue());

    // FLOAT16 beside DOUBLE and FLOAT: numbers, and NaN and the infinities as strings.
    String[] f16 = {"1.0", null, "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "5.9604645E-8", "65504.0", "-0.0",
        "0.33325195"};
    String[] dbl = {"1.5", null, "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "1.0E300", "0.1", "-0.0", "2.0"};
    String[] flt = {"1.5", null, "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"Infinity\"", "0.1", "-0.0", "2.0"};
    for (int row = 0; row < 9; row++) {
      if (row == 1) {
        continue;
      }
      assertTrue(rows.get(row).contains("\"f16\": " + f16[row] + ","), rows.get(row));
      assertTrue(rows.get(row).contains("\"dbl\": " + dbl[row] + ","), rows.get(row));
      assertTrue(rows.get(row).contains("\"flt\": " + flt[row] + ","), rows.get(row));
    }
  }

  private static ColumnDescriptor column(PhysicalType type, int length, String logical) {
    return new ColumnDescriptor(0, List.of("c"), type, length, Repetition.REQUIRED, 0, 0, logical);
  }

  private static String text(ColumnDescriptor c, byte[] b) {
    StringBuilder out = new StringBuilder();
    new ValueText(c).append(out, b, 0, b.length);
    return out.toString();
  }

  private static byte[] le32(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  private static byte[] le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  /** The converted-type spellings of footers without logical types, and values that are not what they claim. */
  @Test
  void convertedTypesAndOddValues() {
    assertEquals("18446744073709551615", text(column(PhysicalType.INT64, 0, "UINT_64"), le64(-1)));
    assertEquals("-1", text(column(PhysicalType.INT64, 0, "INT_64"), le64(-1)));
    assertEquals("4294967295", text(column(PhysicalType.INT32, 0, "UINT_32"), le32(-1)));
    assertEquals("65535", text(column(PhysicalType.INT32, 0, "UINT_16"), le32(65535)));
    assertEquals("-7", text(column(PhysicalType.INT32, 0, "INT_8"), le32(-7)));
    assertEquals("\"2024-01-31T12:34:56.789Z\"",
        text(column(PhysicalType.INT64, 0, "TIMESTAMP_MILLIS"), le64(1_706_704_496_789L)));
    assertEquals("\"2024-01-31T12:34:56.789000Z\"",
        text(column(PhysicalType.INT64, 0, "TIMESTAMP_MICROS"), le64(1_706_704_496_789_000L)));
    assertEquals("\"12:34:56.789\"", text(column(PhysicalType.INT32, 0, "TIME_MILLIS"), le32(45_296_789)));
    assertEquals("\"12:34:56.789000\"", text(column(PhysicalType.INT64, 0, "TIME_MICROS"), le64(45_296_789_000L)));
    assertEquals("86400000", text(column(PhysicalType.INT32, 0, "TIME_MILLIS"), le32(86_400_000))); // no time of day
    assertEquals("\"é\"", text(column(PhysicalType.BYTE_ARRAY, 0, "UTF8"), "é".getBytes(StandardCharsets.UTF_8)));
    assertEquals("-0.05", text(column(PhysicalType.INT64, 0, "DECIMAL(18,2)"), le64(-5)));
    assertEquals("0.000", text(column(PhysicalType.BYTE_ARRAY, 0, "DECIMAL(5,3)"), new byte[0]));
    assertEquals("-1", text(column(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, "DECIMAL(5,0)"),
        new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}));
    assertEquals("{\"months\": 1, \"days\": 2, \"millis\": 3}", text(column(PhysicalType.FIXED_LEN_BYTE_ARRAY, 12,
        "INTERVAL"), ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(2).putInt(3).array()));
    // A logical type that does not fit the physical type is passed over.
    assertEquals("\"AAE=\"", text(column(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2, "UUID"), new byte[] {0, 1}));
    assertEquals("7", text(column(PhysicalType.INT64, 0, "DATE"), le64(7)));
    // Geometry: WKT, or base64 with a note when the value is not WKB.
    byte[] point = ByteBuffer.allocate(21).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putInt(1).putDouble(1)
        .putDouble(2).array();
    assertEquals("\"POINT (1 2)\"", text(column(PhysicalType.BYTE_ARRAY, 0, "GEOMETRY"), point));
    assertEquals("\"POINT (1 2)\"", text(column(PhysicalType.BYTE_ARRAY, 0, "GEOGRAPHY(OGC:CRS84,SPHERICAL)"),
        point));
    String bad = text(column(PhysicalType.BYTE_ARRAY, 0, "GEOMETRY(srid:5070)"), new byte[] {7, 1, 2});
    assertTrue(bad.startsWith("\"base64:BwEC (not WKB: "), bad);
    // INT96: nanoseconds of the day, then the Julian day.
    byte[] int96 = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(1_000_000_001L).putInt(2_440_588)
        .array();
    assertEquals("\"1970-01-01T00:00:01.000000001Z\"", text(column(PhysicalType.INT96, 0, null), int96));
  }

  // ------------------------------------------------------------------------------------- 3. -n bounds the work

  @Test
  void headOfOneRowReadsOnlyTheFirstRowGroup() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("bounds"));
    GeneratedFile file = TestFileGenerator.lineitemLike(dir, 60_000, CompressionCodecName.SNAPPY, 256 * 1024);
    FileMetadata meta = footer(file.path());
    assertTrue(meta.rowGroups().size() >= 4, "row groups " + meta.rowGroups().size());
    RowGroupMeta first = meta.rowGroups().get(0);
    ScanMetrics metrics = new ScanMetrics();
    List<String> rows = head(file.path(), 1, null, metrics);
    assertEquals(1, rows.size());
    assertEquals(1L, metrics.snapshot().get("row_groups"));
    assertTrue(metrics.bytesRead() <= first.compressedSize(), metrics.bytesRead() + " bytes read, the first row group "
        + "has " + first.compressedSize());
    assertTrue(JSON.readTree(rows.get(0)).get("l_shipdate").textValue().matches("199[2-8]-\\d\\d-\\d\\d"), rows.get(0));

    // More rows than the first row group holds: the next is read, not the rest.
    ScanMetrics more = new ScanMetrics();
    assertEquals(first.numRows() + 1, head(file.path(), first.numRows() + 1, null, more).size());
    assertEquals(2L, more.snapshot().get("row_groups"));
    // -n 0 reads no row group.
    ScanMetrics none = new ScanMetrics();
    assertEquals(List.of(), head(file.path(), 0, null, none));
    assertEquals(0L, none.snapshot().get("row_groups"));
  }

  // ------------------------------------------------------------------------------------- 4. the command

  @Test
  void commandPrintsJsonLinesAndRefusesABadN() throws IOException {
    Path file = CorpusFiles.file("alltypes_plain.parquet");
    assertEquals(10, cli("head", CorpusFiles.file("alltypes_tiny_pages.parquet").toString()).size()); // default 10
    List<String> three = cli("head", file.toString(), "-n", "3", "--columns", "id,timestamp_col");
    assertEquals(List.of("{\"id\": 4, \"timestamp_col\": \"2009-03-01T00:00:00.000000000Z\"}",
        "{\"id\": 5, \"timestamp_col\": \"2009-03-01T00:01:00.000000000Z\"}",
        "{\"id\": 6, \"timestamp_col\": \"2009-04-01T00:00:00.000000000Z\"}"), three);
    assertEquals(8, cli("head", "-n", "100", file.toString()).size());
    // A directory reads as one dataset: files in path order, as many as the rows need.
    Path dir = Files.createDirectories(tmp.resolve("dataset"));
    Files.copy(file, dir.resolve("a.parquet"));
    Files.copy(file, dir.resolve("b.parquet"));
    List<String> rows = cli("head", dir.toString(), "-n", "12", "--columns", "id");
    assertEquals(12, rows.size());
    assertEquals("{\"id\": 4}", rows.get(8));
    for (String[] bad : new String[][] {{"-n", "x"}, {"-n", "-1"}, {"-n", "1.5"}, {"-n"}, {"--bogus", "1"}}) {
      List<String> args = new ArrayList<>(List.of("head", file.toString()));
      args.addAll(List.of(bad));
      Args.UsageException e = assertThrows(Args.UsageException.class, () -> cli(args.toArray(String[]::new)),
          String.join(" ", bad));
      assertFalse(e.getMessage().isEmpty());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cli("head", file.toString(), "--columns", "nope"));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }
}
