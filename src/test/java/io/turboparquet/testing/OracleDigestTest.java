package io.turboparquet.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OracleDigestTest {

  @TempDir
  Path tmp;

  /** Builds the contract's byte stream for one column by hand. */
  static final class Expected {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long nonNull;
    long nulls;

    void nullRow() {
      bytes.write(0);
      nulls++;
    }

    void row(byte[] valueBytes) {
      bytes.write(1);
      bytes.writeBytes(valueBytes);
      nonNull++;
    }

    void entry(int rep, int def, int maxDef, byte[] valueBytes) {
      bytes.write(rep);
      bytes.write(def);
      if (def == maxDef) {
        bytes.writeBytes(valueBytes);
        nonNull++;
      } else {
        nulls++;
      }
    }

    String line(String path, String type) throws Exception {
      return path + "\t" + type + "\t" + nonNull + "\t" + nulls + "\t"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
    }
  }

  static byte[] le32(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  static byte[] le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  static byte[] lenPrefixed(byte[] b) {
    byte[] out = new byte[4 + b.length];
    System.arraycopy(le32(b.length), 0, out, 0, 4);
    System.arraycopy(b, 0, out, 4, b.length);
    return out;
  }

  /** (a) Flat file, every physical type, nulls, several pages and row groups: digest equals a hand-fed SHA-256. */
  @Test
  void flatDigestMatchesIndependentComputation() throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType("""
        message flat {
          optional boolean b;
          required int32 i32;
          optional int64 i64;
          required int96 i96;
          optional float f;
          required double d;
          optional binary s (STRING);
          required fixed_len_byte_array(3) x;
        }
        """);
    String[] names = {"b", "i32", "i64", "i96", "f", "d", "s", "x"};
    String[] types = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    Expected[] exp = new Expected[names.length];
    for (int i = 0; i < exp.length; i++) {
      exp[i] = new Expected();
    }
    for (boolean v2 : new boolean[] {false, true}) {
      for (boolean dict : new boolean[] {false, true}) {
        Path file = tmp.resolve("flat_" + v2 + "_" + dict + ".parquet");
        Expected[] e = new Expected[names.length];
        for (int i = 0; i < e.length; i++) {
          e[i] = new Expected();
        }
        SplittableRandom r = new SplittableRandom(7);
        int rows = 2500;
        TestFileGenerator.Cfg cfg = TestFileGenerator.Cfg.of(CompressionCodecName.SNAPPY, v2, dict)
            .withPages(1024, 300).withRowGroupSize(16 * 1024);
        TestFileGenerator.write(file, schema, cfg, rows, (row, g) -> {
          boolean friendly = row % 2 == 0;
          if (r.nextInt(4) == 0) {
            e[0].nullRow();
          } else {
            boolean v = r.nextBoolean();
            g.add("b", v);
            e[0].row(new byte[] {(byte) (v ? 1 : 0)});
          }
          int i32 = friendly ? r.nextInt(5) : r.nextInt();
          g.add("i32", i32);
          e[1].row(le32(i32));
          if (row >= 1000 && row < 1700) { // whole pages of nulls
            e[2].nullRow();
          } else {
            long v = r.nextLong();
            g.add("i64", v);
            e[2].row(le64(v));
          }
          byte[] i96 = new byte[12];
          r.nextBytes(i96);
          g.add("i96", Binary.fromConstantByteArray(i96));
          e[3].row(i96);
          if (r.nextInt(10) == 0) {
            e[4].nullRow();
          } else {
            float f = row % 97 == 0 ? Float.NaN : (float) r.nextGaussian();
            g.add("f", f);
            e[4].row(le32(Float.floatToRawIntBits(f)));
          }
          double d = row % 89 == 0 ? -0.0 : r.nextGaussian();
          g.add("d", d);
          e[5].row(le64(Double.doubleToRawLongBits(d)));
          if (r.nextInt(3) == 0) {
            e[6].nullRow();
          } else {
            byte[] s = (row % 50 == 0 ? "" : "ü-" + (friendly ? row % 3 : row)).getBytes(StandardCharsets.UTF_8);
            g.add("s", Binary.fromConstantByteArray(s));
            e[6].row(lenPrefixed(s));
          }
          byte[] x = {(byte) row, (byte) (row >> 8), (byte) 0xff};
          g.add("x", Binary.fromConstantByteArray(x));
          e[7].row(x);
        });
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
          expected.add(e[i].line(names[i], types[i]));
        }
        assertTrue(OracleDigest.footer(file).getBlocks().size() > 1, "want several row groups");
        assertEquals(expected, OracleDigest.digest(file, null), file.toString());
        // a selection comes back in schema order, whatever the order asked
        assertEquals(List.of(expected.get(1), expected.get(6)), OracleDigest.digest(file, List.of("s", "i32")));
        // read() agrees with the digest's counts and values
        List<OracleColumn> cols = OracleDigest.read(file, List.of("i64", "s"));
        assertEquals(rows, cols.get(0).entries().size());
        assertEquals(e[2].nonNull, cols.get(0).nonNullCount());
        assertEquals(e[6].nulls, cols.get(1).nullCount());
        assertEquals("BYTE_ARRAY", cols.get(1).physicalType());
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> OracleDigest.digest(tmp.resolve("flat_false_false.parquet"), List.of("i32", "nope")));
  }

  /** (c) Nested: a list column feeds rep byte, def byte, then the value when defined, as the contract says. */
  @Test
  void nestedListDigestFeedsLevels() throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType("""
        message m {
          optional group l (LIST) { repeated group list { optional int32 element; } }
          required int32 id;
        }
        """);
    // rows: [1, null, 3], [], null, [7], [null]
    Path file = tmp.resolve("list.parquet");
    TestFileGenerator.write(file, schema, TestFileGenerator.Cfg.of(CompressionCodecName.UNCOMPRESSED, false, true),
        5, (row, g) -> {
          g.add("id", row);
          switch (row) {
            case 0 -> {
              Group l = g.addGroup("l");
              l.addGroup("list").add("element", 1);
              l.addGroup("list");
              l.addGroup("list").add("element", 3);
            }
            case 1 -> g.addGroup("l");
            case 2 -> {
            }
            case 3 -> g.addGroup("l").addGroup("list").add("element", 7);
            case 4 -> g.addGroup("l").addGroup("list");
            default -> throw new AssertionError();
          }
        });
    Expected e = new Expected();
    e.entry(0, 3, 3, le32(1));
    e.entry(1, 2, 3, null);
    e.entry(1, 3, 3, le32(3));
    e.entry(0, 1, 3, null); // empty list
    e.entry(0, 0, 3, null); // null list
    e.entry(0, 3, 3, le32(7));
    e.entry(0, 2, 3, null); // [null]
    assertEquals(List.of(e.line("l.list.element", "INT32")), OracleDigest.digest(file, List.of("l.list.element")));

    OracleColumn col = OracleDigest.readColumn(file, "l.list.element");
    assertEquals(1, col.maxRepetitionLevel());
    assertEquals(3, col.maxDefinitionLevel());
    List<OracleColumn.Entry> want = List.of(new OracleColumn.Entry(0, 3, 1), new OracleColumn.Entry(1, 2, null),
        new OracleColumn.Entry(1, 3, 3), new OracleColumn.Entry(0, 1, null), new OracleColumn.Entry(0, 0, null),
        new OracleColumn.Entry(0, 3, 7), new OracleColumn.Entry(0, 2, null));
    assertNull(col.describeDifference(want), () -> col.describeDifference(want));
    List<OracleColumn.Entry> wrong = new ArrayList<>(want);
    wrong.set(2, new OracleColumn.Entry(1, 3, 4));
    assertEquals(2, col.firstDifference(wrong));
  }

  /** NaN payloads and other special float bits come back unchanged: parquet-java's readers do not canonicalise. */
  @Test
  void nanPayloadsSurviveReading() {
    GeneratedFile f = TestFileGenerator.nanPayloads(tmp);
    List<OracleColumn> cols = OracleDigest.read(f.path(), null);
    for (int i = 0; i < TestFileGenerator.FLOAT_BITS.length; i++) {
      assertEquals(TestFileGenerator.FLOAT_BITS[i], Float.floatToRawIntBits((Float) cols.get(0).entries().get(i).value()),
          "float row " + i);
      assertEquals(TestFileGenerator.DOUBLE_BITS[i],
          Double.doubleToRawLongBits((Double) cols.get(1).entries().get(i).value()), "double row " + i);
    }
  }

  /**
   * parquet-java's own PLAIN float writer canonicalises NaN (Float.floatToIntBits): a payload NaN written through
   * it reads back as 0x7fc00000. That is why {@link TestFileGenerator#nanPayloads} plugs in a raw writer.
   */
  @Test
  void parquetJavaWriterCanonicalisesNaN() {
    MessageType schema = MessageTypeParser.parseMessageType("message m { required float f; }");
    Path file = tmp.resolve("nan_default_writer.parquet");
    TestFileGenerator.write(file, schema, TestFileGenerator.Cfg.of(CompressionCodecName.UNCOMPRESSED, false, false),
        1, (row, g) -> g.add("f", Float.intBitsToFloat(0x7fc00001)));
    Object v = OracleDigest.readColumn(file, "f").entries().get(0).value();
    assertEquals(0x7fc00000, Float.floatToRawIntBits((Float) v));
  }

  // ------------------------------------------------------------------------------------------------- (b) corpus

  /** Minimal CSV parsing: fields optionally double-quoted; an unquoted empty field is null. */
  static List<List<String>> readCsv(Path p) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      if (line.isEmpty()) {
        continue;
      }
      List<String> fields = new ArrayList<>();
      int i = 0;
      while (true) {
        if (i < line.length() && line.charAt(i) == '"') {
          StringBuilder sb = new StringBuilder();
          i++;
          while (true) {
            char c = line.charAt(i++);
            if (c == '"') {
              if (i < line.length() && line.charAt(i) == '"') {
                sb.append('"');
                i++;
              } else {
                break;
              }
            } else {
              sb.append(c);
            }
          }
          fields.add(sb.toString());
        } else {
          int j = line.indexOf(',', i);
          String f = line.substring(i, j < 0 ? line.length() : j);
          fields.add(f.isEmpty() ? null : f);
          i = j < 0 ? line.length() : j;
        }
        if (i >= line.length()) {
          break;
        }
        assertEquals(',', line.charAt(i), "csv syntax in " + p);
        i++;
        if (i == line.length()) {
          fields.add(null);
          break;
        }
      }
      rows.add(fields);
    }
    return rows;
  }

  /** Values of the file equal the CSV, column by column (by position: some CSV headers differ from the schema). */
  private static void assertMatchesCsv(String name) throws IOException {
    Path parquet = CorpusFiles.file(name + ".parquet");
    List<List<String>> csv = readCsv(CorpusFiles.file(name + "_expect.csv"));
    List<OracleColumn> cols = OracleDigest.read(parquet, null);
    assertEquals(csv.get(0).size(), cols.size(), name + ": column count");
    int rows = csv.size() - 1;
    long nullsSeen = 0;
    for (int c = 0; c < cols.size(); c++) {
      OracleColumn col = cols.get(c);
      assertEquals(0, col.maxRepetitionLevel());
      assertEquals(rows, col.entries().size(), name + " " + col.path() + ": rows");
      for (int r = 0; r < rows; r++) {
        String want = csv.get(r + 1).get(c);
        Object v = col.entries().get(r).value();
        String got = v == null ? null : v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
        if (want == null) {
          nullsSeen++;
        }
        assertEquals(want, got, name + " " + col.path() + " row " + r);
      }
    }
    if (name.contains("optional") || name.equals("delta_byte_array")) {
      assertTrue(nullsSeen > 0, name + ": expected some nulls");
    }
  }

  @Test
  void corpusDeltaBinaryPacked() throws IOException {
    assertMatchesCsv("delta_binary_packed");
  }

  @Test
  void corpusDeltaByteArray() throws IOException {
    assertMatchesCsv("delta_byte_array");
  }

  @Test
  void corpusDeltaEncodingOptionalColumn() throws IOException {
    assertMatchesCsv("delta_encoding_optional_column");
  }

  @Test
  void corpusDeltaEncodingRequiredColumn() throws IOException {
    assertMatchesCsv("delta_encoding_required_column");
  }

  @Test
  void csvParserHandlesNullsAndQuotes() throws IOException {
    Path p = tmp.resolve("t.csv");
    Files.writeString(p, "\"a\",\"b\",c\n\"x,\"\"y\",,3\n,,\n");
    assertEquals(List.of(List.of("a", "b", "c"), java.util.Arrays.asList("x,\"y", null, "3"),
        java.util.Arrays.asList(null, null, null)), readCsv(p));
  }

  @Test
  void int96AndFixedAreRawBytes() {
    // alltypes_plain: Impala INT96 timestamps, 12 stored bytes each
    OracleColumn ts = OracleDigest.readColumn(CorpusFiles.file("alltypes_plain.parquet"), "timestamp_col");
    assertEquals("INT96", ts.physicalType());
    assertEquals(8, ts.entries().size());
    for (OracleColumn.Entry e : ts.entries()) {
      assertEquals(12, ((byte[]) e.value()).length);
    }
    OracleColumn other = OracleDigest.readColumn(CorpusFiles.file("alltypes_plain.snappy.parquet"), "timestamp_col");
    assertArrayEquals((byte[]) ts.entries().get(0).value(), (byte[]) OracleDigest
        .readColumn(CorpusFiles.file("alltypes_plain.parquet"), "timestamp_col").entries().get(0).value());
    assertEquals(2, other.entries().size());
  }
}
