package io.turboparquet.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Writes a deterministic matrix of Parquet files with parquet-java's writer (ExampleParquetWriter).
 *
 * <p>Families (see {@link #generateAll}):
 * <ul>
 *   <li>{@code types}: one column per physical type / logical annotation (28 kinds), each required and optional,
 *       for every {@link Mode} (encoding setup) x every writable codec. Small pages, several row groups.</li>
 *   <li>{@code nulls}: INT64, STRING and DOUBLE columns at every null density (required, none, 10%, 90%, all,
 *       1000-row blocks = whole null pages), for every codec x page version, dictionary on/off alternating.</li>
 *   <li>{@code nested}: lists (empty, null, null elements), list of strings, map, struct in struct,
 *       list of lists, a bare repeated group; 4 settings.</li>
 *   <li>specials: raw NaN payloads, an empty file (no row groups), a single-row file, one large-page file.</li>
 * </ul>
 * Notes on parquet-java 1.15.1 as a writer: with PARQUET_2_0 and no dictionary it writes DELTA_BINARY_PACKED for
 * INT32/INT64, DELTA_BYTE_ARRAY for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, RLE for BOOLEAN, PLAIN for FLOAT, DOUBLE,
 * INT96; it never writes DELTA_LENGTH_BYTE_ARRAY on its own (we plug in a ValuesWriterFactory for that), nor PLAIN
 * data in V2 pages for ints/binary (same). Its PLAIN/BSS float writers canonicalise NaN (floatToIntBits), so NaN
 * payloads need {@link Mode#RAW_NAN}. The Hadoop LZ4 codec needs lz4-java on the class path.
 */
public final class TestFileGenerator {

  static final Configuration CONF = new Configuration();

  /** Encoding setups of the {@code types} family. */
  public enum Mode {
    /** V1 pages, no dictionary: PLAIN everywhere (booleans bit-packed PLAIN). */
    PLAIN_V1(false, false),
    /** V2 pages, PLAIN everywhere (custom values-writer factory). */
    PLAIN_V2(true, false),
    /** V1, dictionary: PLAIN_DICTIONARY pages + PLAIN dictionary page. */
    DICT_V1(false, true),
    /** V2, dictionary: RLE_DICTIONARY pages, booleans RLE. */
    DICT_V2(true, true),
    /** V1, tiny dictionary page size; values few-distinct first then all-distinct: dictionary falls back to PLAIN mid-chunk. */
    DICT_FALLBACK_V1(false, true),
    /** V2 version of the fallback (falls back to the delta encodings). */
    DICT_FALLBACK_V2(true, true),
    /** V2, no dictionary: DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, RLE booleans. */
    DELTA_V2(true, false),
    /** V2, no dictionary, BYTE_ARRAY columns DELTA_LENGTH_BYTE_ARRAY (custom factory), others as DELTA_V2. */
    DELTA_LENGTH_V2(true, false),
    /** V1, BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY. */
    BSS_V1(false, false),
    /** V2, BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY. */
    BSS_V2(true, false),
    /** Only for the NaN file: floats/doubles written PLAIN with their raw bits. */
    RAW_NAN(false, false);

    final boolean v2;
    final boolean dictionary;

    Mode(boolean v2, boolean dictionary) {
      this.v2 = v2;
      this.dictionary = dictionary;
    }
  }

  /** How values are drawn. */
  public enum Dist {
    /** 12 distinct values per column: dictionary-friendly. */
    FRIENDLY,
    /** A fresh value each row. */
    DISTINCT,
    /** FRIENDLY for the first third of the rows, DISTINCT after: makes the dictionary overflow mid-chunk. */
    FALLBACK
  }

  /** Null densities of optional columns. */
  public enum Nulls {
    NONE(0), P10(0.10), P50(0.5), P90(0.90), ALL(1), BLOCKS(-1);

    final double p;

    Nulls(double p) {
      this.p = p;
    }

    boolean isNull(int row, SplittableRandom r) {
      if (this == BLOCKS) {
        // rows 1000..1999, 3000..3999, ...: null (whole pages of nulls); elsewhere 5% nulls
        return (row / 1000) % 2 == 1 || r.nextInt(20) == 0;
      }
      return p >= 1 || (p > 0 && r.nextDouble() < p);
    }

    String label() {
      return switch (this) {
        case NONE -> "nulls 0%";
        case P10 -> "nulls 10%";
        case P50 -> "nulls 50%";
        case P90 -> "nulls 90%";
        case ALL -> "nulls 100%";
        case BLOCKS -> "null blocks";
      };
    }
  }

  /** The value kinds of the {@code types} family: one physical type plus logical annotation each. */
  public enum Kind {
    BOOL(PrimitiveTypeName.BOOLEAN, 0, null),
    I32(PrimitiveTypeName.INT32, 0, null),
    I8(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.intType(8, true)),
    I16(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.intType(16, true)),
    U8(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.intType(8, false)),
    U16(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.intType(16, false)),
    U32(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.intType(32, false)),
    DATE(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.dateType()),
    TIME_MS(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS)),
    DEC9(PrimitiveTypeName.INT32, 0, LogicalTypeAnnotation.decimalType(2, 9)),
    I64(PrimitiveTypeName.INT64, 0, null),
    U64(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.intType(64, false)),
    TS_MS(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS)),
    TS_US(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS)),
    TS_NS(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.timestampType(true, TimeUnit.NANOS)),
    TIME_US(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS)),
    DEC18(PrimitiveTypeName.INT64, 0, LogicalTypeAnnotation.decimalType(4, 18)),
    I96(PrimitiveTypeName.INT96, 0, null),
    F32(PrimitiveTypeName.FLOAT, 0, null),
    F64(PrimitiveTypeName.DOUBLE, 0, null),
    BIN(PrimitiveTypeName.BINARY, 0, null),
    STR(PrimitiveTypeName.BINARY, 0, LogicalTypeAnnotation.stringType()),
    ENUM(PrimitiveTypeName.BINARY, 0, LogicalTypeAnnotation.enumType()),
    JSON(PrimitiveTypeName.BINARY, 0, LogicalTypeAnnotation.jsonType()),
    DEC30(PrimitiveTypeName.BINARY, 0, LogicalTypeAnnotation.decimalType(5, 30)),
    UUID(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 16, LogicalTypeAnnotation.uuidType()),
    DEC25(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 12, LogicalTypeAnnotation.decimalType(3, 25)),
    FIX3(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 3, null);

    public final PrimitiveTypeName type;
    public final int length;
    public final LogicalTypeAnnotation logical;

    Kind(PrimitiveTypeName type, int length, LogicalTypeAnnotation logical) {
      this.type = type;
      this.length = length;
      this.logical = logical;
    }

    public String column(boolean optional) {
      return name().toLowerCase() + (optional ? "_opt" : "_req");
    }
  }

  /** Writer settings. */
  record Cfg(CompressionCodecName codec, boolean v2, boolean dictionary, int pageSize, int pageRows, int dictPageSize,
             long rowGroupSize, boolean checksums, boolean bss, ValuesWriterFactory factory) {

    static Cfg of(CompressionCodecName codec, boolean v2, boolean dictionary) {
      return new Cfg(codec, v2, dictionary, 8 * 1024, 300, 64 * 1024, 256 * 1024, false, false, null);
    }

    Cfg withChecksums(boolean c) {
      return new Cfg(codec, v2, dictionary, pageSize, pageRows, dictPageSize, rowGroupSize, c, bss, factory);
    }

    Cfg withPages(int size, int rows) {
      return new Cfg(codec, v2, dictionary, size, rows, dictPageSize, rowGroupSize, checksums, bss, factory);
    }

    Cfg withRowGroupSize(long s) {
      return new Cfg(codec, v2, dictionary, pageSize, pageRows, dictPageSize, s, checksums, bss, factory);
    }

    Cfg withDictPageSize(int s) {
      return new Cfg(codec, v2, dictionary, pageSize, pageRows, s, rowGroupSize, checksums, bss, factory);
    }

    Cfg withBss(boolean b) {
      return new Cfg(codec, v2, dictionary, pageSize, pageRows, dictPageSize, rowGroupSize, checksums, b, factory);
    }

    Cfg withFactory(ValuesWriterFactory f) {
      return new Cfg(codec, v2, dictionary, pageSize, pageRows, dictPageSize, rowGroupSize, checksums, bss, f);
    }
  }

  /** Codecs every family is written with (LZ4 only when {@link #hadoopLz4Available()}). */
  public static List<CompressionCodecName> writableCodecs() {
    List<CompressionCodecName> codecs = new ArrayList<>(List.of(CompressionCodecName.UNCOMPRESSED,
        CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.ZSTD,
        CompressionCodecName.LZ4_RAW));
    if (hadoopLz4Available()) {
      codecs.add(CompressionCodecName.LZ4);
    }
    return codecs;
  }

  /** Hadoop's Lz4Codec (used by parquet-java for the deprecated LZ4 codec) needs lz4-java (org.lz4:lz4-java). */
  public static boolean hadoopLz4Available() {
    try {
      Class.forName("net.jpountz.lz4.LZ4Factory", false, TestFileGenerator.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private TestFileGenerator() {
  }

  // ------------------------------------------------------------------------------------------------ families

  /** Rows of each {@code types} file. */
  public static final int TYPES_ROWS = 1000;

  /** Runs independent file writers on all cores; results in task order (each file has its own seed). */
  static List<GeneratedFile> parallel(List<java.util.function.Supplier<GeneratedFile>> tasks) {
    return tasks.parallelStream().map(java.util.function.Supplier::get).toList();
  }

  /** Every family below, into {@code dir}. */
  public static List<GeneratedFile> generateAll(Path dir) {
    List<GeneratedFile> out = new ArrayList<>();
    out.addAll(typesMatrix(dir));
    out.addAll(nullsMatrix(dir));
    out.addAll(nestedFiles(dir));
    out.addAll(specialFiles(dir));
    return out;
  }

  /** The {@code types} family: every Mode (except RAW_NAN) x every writable codec. */
  public static List<GeneratedFile> typesMatrix(Path dir) {
    List<CompressionCodecName> codecs = writableCodecs();
    Nulls[] densities = {Nulls.P10, Nulls.NONE, Nulls.P90, Nulls.BLOCKS, Nulls.P50, Nulls.ALL};
    List<java.util.function.Supplier<GeneratedFile>> tasks = new ArrayList<>();
    int i = 0;
    for (Mode mode : Mode.values()) {
      if (mode == Mode.RAW_NAN) {
        continue;
      }
      for (int c = 0; c < codecs.size(); c++) {
        Dist dist = switch (mode) {
          case DICT_V1, DICT_V2 -> Dist.FRIENDLY;
          case DICT_FALLBACK_V1, DICT_FALLBACK_V2 -> Dist.FALLBACK;
          default -> c % 2 == 0 ? Dist.DISTINCT : Dist.FRIENDLY;
        };
        Nulls nulls = densities[(c + mode.ordinal()) % densities.length];
        boolean checksums = i % 3 == 0;
        CompressionCodecName codec = codecs.get(c);
        long seed = 1000 + i;
        tasks.add(() -> types(dir, mode, codec, dist, nulls, checksums, TYPES_ROWS, seed));
        i++;
      }
    }
    return parallel(tasks);
  }

  /** One {@code types} file: each Kind as a required and an optional column. */
  public static GeneratedFile types(Path dir, Mode mode, CompressionCodecName codec, Dist dist, Nulls nulls,
                                    boolean checksums, int rows, long seed) {
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (Kind k : Kind.values()) {
      for (boolean opt : new boolean[] {false, true}) {
        Types.PrimitiveBuilder<? extends org.apache.parquet.schema.Type> pb =
            Types.primitive(k.type, opt ? Repetition.OPTIONAL : Repetition.REQUIRED);
        if (k.length > 0) {
          pb = pb.length(k.length);
        }
        if (k.logical != null) {
          pb = pb.as(k.logical);
        }
        b.addField(pb.named(k.column(opt)));
      }
    }
    MessageType schema = b.named("types");
    Cfg cfg = Cfg.of(codec, mode.v2, mode.dictionary).withChecksums(checksums);
    switch (mode) {
      case PLAIN_V2 -> cfg = cfg.withFactory(new CustomFactory(CustomFactory.Kind.PLAIN_ALL));
      case DELTA_LENGTH_V2 -> cfg = cfg.withFactory(new CustomFactory(CustomFactory.Kind.DELTA_LENGTH));
      case BSS_V1, BSS_V2 -> cfg = cfg.withBss(true);
      case DICT_FALLBACK_V1, DICT_FALLBACK_V2 -> cfg = cfg.withDictPageSize(2048).withRowGroupSize(64L << 20);
      default -> {
      }
    }
    String name = "types_" + mode.name().toLowerCase() + "_" + codec.name().toLowerCase() + ".parquet";
    String desc = "types / " + mode + " / " + codec + " / " + (mode.v2 ? "v2" : "v1") + " / " + nulls.label()
        + " / dist=" + dist.name().toLowerCase() + (checksums ? " / checksums" : "") + " / " + rows + " rows";
    Path file = dir.resolve(name);
    Object[][] values = typesValues(dist, nulls, rows, seed);
    write(file, schema, cfg, rows, (row, g) -> {
      for (int c = 0; c < TYPES_COLUMNS.size(); c++) {
        if (values[row][c] != null) {
          addValue(g, TYPES_COLUMNS.get(c), values[row][c]);
        }
      }
    });
    return new GeneratedFile(file, desc);
  }

  /** Column names of a {@code types} file, in schema order: each Kind required, then optional. */
  public static final List<String> TYPES_COLUMNS = java.util.Arrays.stream(Kind.values())
      .flatMap(k -> java.util.stream.Stream.of(k.column(false), k.column(true))).toList();

  /**
   * The values a {@code types} file holds: [row][column in {@link #TYPES_COLUMNS} order], null for null. Lets a
   * test check a reader (or the oracle) against what was written.
   */
  public static Object[][] typesValues(Dist dist, Nulls nulls, int rows, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int switchRow = rows / 3;
    Object[][] out = new Object[rows][TYPES_COLUMNS.size()];
    for (int row = 0; row < rows; row++) {
      int c = 0;
      for (Kind k : Kind.values()) {
        for (boolean opt : new boolean[] {false, true}) {
          int col = c++;
          if (opt && nulls.isNull(row, r)) {
            continue;
          }
          Dist d = dist == Dist.FALLBACK ? (row < switchRow ? Dist.FRIENDLY : Dist.DISTINCT) : dist;
          long key = d == Dist.FRIENDLY ? 1_000_000L * k.ordinal() + r.nextInt(12) : r.nextLong();
          out[row][col] = value(k, key);
        }
      }
    }
    return out;
  }

  /** The {@code nulls} family: every codec x page version, INT64/STRING/DOUBLE at each null density. */
  public static List<GeneratedFile> nullsMatrix(Path dir) {
    List<java.util.function.Supplier<GeneratedFile>> tasks = new ArrayList<>();
    int i = 0;
    for (CompressionCodecName codec : writableCodecs()) {
      for (boolean v2 : new boolean[] {false, true}) {
        boolean dict = (i + i / 2) % 2 == 0; // per codec v1/v2 differ; over the codecs, both versions get both
        boolean checksums = i % 4 == 1;
        long seed = 5000 + i;
        tasks.add(() -> nulls(dir, codec, v2, dict, checksums, 3000, seed));
        i++;
      }
    }
    return parallel(tasks);
  }

  public static GeneratedFile nulls(Path dir, CompressionCodecName codec, boolean v2, boolean dict,
                                    boolean checksums, int rows, long seed) {
    Kind[] kinds = {Kind.I64, Kind.STR, Kind.F64};
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (Kind k : kinds) {
      b.addField(Types.primitive(k.type, Repetition.REQUIRED).as(k.logical).named(k.name().toLowerCase() + "_req"));
      for (Nulls n : Nulls.values()) {
        b.addField(Types.primitive(k.type, Repetition.OPTIONAL).as(k.logical)
            .named(k.name().toLowerCase() + "_" + n.name().toLowerCase()));
      }
    }
    MessageType schema = b.named("nulls");
    Cfg cfg = Cfg.of(codec, v2, dict).withPages(4096, 500).withChecksums(checksums).withRowGroupSize(128 * 1024);
    String name = "nulls_" + codec.name().toLowerCase() + "_" + (v2 ? "v2" : "v1") + ".parquet";
    String desc = "nulls / " + (dict ? "dict" : "no dict") + " / " + codec + " / " + (v2 ? "v2" : "v1")
        + " / nulls required,0%,10%,50%,90%,100%,blocks" + (checksums ? " / checksums" : "") + " / " + rows + " rows";
    Path file = dir.resolve(name);
    SplittableRandom r = new SplittableRandom(seed);
    write(file, schema, cfg, rows, (row, g) -> {
      for (Kind k : kinds) {
        String base = k.name().toLowerCase();
        boolean friendly = (row / 700) % 2 == 0;
        addValue(g, base + "_req", value(k, friendly ? r.nextInt(20) : r.nextLong()));
        for (Nulls n : Nulls.values()) {
          if (!n.isNull(row, r)) {
            addValue(g, base + "_" + n.name().toLowerCase(), value(k, friendly ? r.nextInt(20) : r.nextLong()));
          }
        }
      }
    });
    return new GeneratedFile(file, desc);
  }

  /** Schema of the nested family. */
  public static final String NESTED_SCHEMA = """
      message nested {
        required int64 id;
        optional group int_list (LIST) { repeated group list { optional int32 element; } }
        optional group str_list (LIST) { repeated group list { required binary element (STRING); } }
        optional group int_map (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
        optional group outer { optional int32 a; optional group inner { optional binary s (STRING); required double d; } }
        optional group list_list (LIST) { repeated group list { optional group element (LIST) { repeated group list { optional int32 element; } } } }
        repeated group points { required int32 x; optional int32 y; }
      }
      """;

  /** Strings of mixed sizes, flat and nested: {@link #largeStrings}. */
  public static final String LARGE_STRINGS_SCHEMA = """
      message large_strings {
        required int64 id;
        optional binary s (STRING);
        required binary r;
        optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
        optional group attrs (MAP) { repeated group key_value { required binary key (STRING); optional binary value (STRING); } }
        optional int32 n;
      }
      """;

  /** How {@link #largeStrings} encodes its strings. */
  public enum StringEncoding { DICTIONARY, PLAIN, DELTA_LENGTH, DELTA_BYTE_ARRAY }

  /**
   * Strings of mixed sizes (mostly short and repeating, some of 10-200 KB, about one row in 40 with
   * a value of 1-3 MB) in a flat optional and a flat required column, a LIST of strings and a MAP
   * of strings, beside fixed-width columns: for batches bounded in bytes. Value bytes follow from
   * the seed, not from a random source per byte, so that writing stays fast.
   */
  public static GeneratedFile largeStrings(Path dir, CompressionCodecName codec, StringEncoding encoding, int rows,
      long seed) {
    MessageType schema = MessageTypeParser.parseMessageType(LARGE_STRINGS_SCHEMA);
    Cfg cfg = switch (encoding) {
      case DICTIONARY -> Cfg.of(codec, false, true);
      case PLAIN -> Cfg.of(codec, false, false);
      case DELTA_LENGTH -> Cfg.of(codec, true, false).withFactory(new CustomFactory(CustomFactory.Kind.DELTA_LENGTH));
      case DELTA_BYTE_ARRAY -> Cfg.of(codec, true, false); // parquet-java's V2 default for strings
    };
    cfg = cfg.withPages(64 * 1024, 50).withRowGroupSize(8L << 20);
    String name = "large_strings_" + encoding.name().toLowerCase() + "_" + codec.name().toLowerCase() + ".parquet";
    Path file = dir.resolve(name);
    SplittableRandom r = new SplittableRandom(seed);
    write(file, schema, cfg, rows, (row, g) -> {
      g.add("id", (long) row);
      if (r.nextInt(8) != 0) {
        g.add("s", Binary.fromConstantByteArray(mixedString(r)));
      }
      g.add("r", Binary.fromConstantByteArray(mixedString(r)));
      if (r.nextInt(6) != 0) {
        Group l = g.addGroup("tags");
        int n = r.nextInt(0, 5);
        for (int i = 0; i < n; i++) {
          Group e = l.addGroup("list");
          if (r.nextInt(6) != 0) {
            e.add("element", Binary.fromConstantByteArray(mixedString(r)));
          }
        }
      }
      if (r.nextInt(5) != 0) {
        Group m = g.addGroup("attrs");
        int n = r.nextInt(0, 4);
        for (int i = 0; i < n; i++) {
          Group kv = m.addGroup("key_value");
          kv.add("key", "k" + i);
          if (r.nextInt(4) != 0) {
            kv.add("value", Binary.fromConstantByteArray(mixedString(r)));
          }
        }
      }
      if (r.nextInt(3) != 0) {
        g.add("n", r.nextInt());
      }
    });
    return new GeneratedFile(file, "large strings / " + encoding + " / " + codec + " / " + rows + " rows");
  }

  /** Mostly short repeating strings, some of 10-200 KB, one in 40 of 1-3 MB. */
  private static byte[] mixedString(SplittableRandom r) {
    int kind = r.nextInt(40);
    int length = kind == 0 ? r.nextInt(1 << 20, 3 << 20) : kind < 4 ? r.nextInt(10_000, 200_000) : r.nextInt(0, 30);
    byte[] b = new byte[length];
    if (kind >= 4) {
      int k = r.nextInt(20); // few distinct short values: dictionary-friendly
      for (int i = 0; i < length; i++) {
        b[i] = (byte) ('a' + (k + i) % 26);
      }
      return b;
    }
    long x = r.nextLong();
    for (int i = 0; i < length; i++) {
      if ((i & 1023) == 0) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      b[i] = (byte) (x >>> ((i & 7) << 3));
    }
    return b;
  }

  public static List<GeneratedFile> nestedFiles(Path dir) {
    return List.of(
        nested(dir, CompressionCodecName.SNAPPY, false, true, false, 1500, 7001),
        nested(dir, CompressionCodecName.ZSTD, true, true, true, 1500, 7002),
        nested(dir, CompressionCodecName.UNCOMPRESSED, false, false, false, 1500, 7003),
        nested(dir, CompressionCodecName.GZIP, true, false, false, 1500, 7004));
  }

  public static GeneratedFile nested(Path dir, CompressionCodecName codec, boolean v2, boolean dict,
                                     boolean checksums, int rows, long seed) {
    MessageType schema = MessageTypeParser.parseMessageType(NESTED_SCHEMA);
    Cfg cfg = Cfg.of(codec, v2, dict).withPages(2048, 200).withChecksums(checksums).withRowGroupSize(64 * 1024);
    String name = "nested_" + codec.name().toLowerCase() + "_" + (v2 ? "v2" : "v1") + (dict ? "_dict" : "")
        + ".parquet";
    String desc = "nested / " + (dict ? "dict" : "no dict") + " / " + codec + " / " + (v2 ? "v2" : "v1")
        + (checksums ? " / checksums" : "") + " / " + rows + " rows";
    Path file = dir.resolve(name);
    SplittableRandom r = new SplittableRandom(seed);
    write(file, schema, cfg, rows, (row, g) -> {
      g.add("id", (long) row);
      int shape = r.nextInt(10);
      if (shape != 0) { // 10% null list
        Group l = g.addGroup("int_list");
        int n = shape == 1 ? 0 : r.nextInt(1, 6); // 10% empty
        for (int i = 0; i < n; i++) {
          Group e = l.addGroup("list");
          if (r.nextInt(7) != 0) {
            e.add("element", (int) (row % 3 == 0 ? r.nextInt(10) : r.nextInt()));
          }
        }
      }
      shape = r.nextInt(10);
      if (shape != 0) {
        Group l = g.addGroup("str_list");
        int n = shape == 1 ? 0 : r.nextInt(0, 5);
        for (int i = 0; i < n; i++) {
          l.addGroup("list").add("element", Binary.fromConstantByteArray((byte[]) value(Kind.STR, r.nextInt(40))));
        }
      }
      shape = r.nextInt(20);
      if (shape > 2) {
        Group m = g.addGroup("int_map");
        int n = shape < 5 ? 0 : r.nextInt(1, 4);
        int start = r.nextInt(10);
        for (int i = 0; i < n; i++) {
          Group kv = m.addGroup("key_value");
          kv.add("key", "k" + (start + i));
          if (r.nextInt(5) != 0) {
            kv.add("value", r.nextLong(-1000, 1000));
          }
        }
      }
      if (r.nextInt(7) != 0) {
        Group o = g.addGroup("outer");
        if (r.nextInt(5) != 0) {
          o.add("a", r.nextInt(-50, 50));
        }
        if (r.nextInt(4) != 0) {
          Group in = o.addGroup("inner");
          if (r.nextInt(5) != 0) {
            in.add("s", "s" + r.nextInt(100));
          }
          in.add("d", r.nextDouble() * 100);
        }
      }
      shape = r.nextInt(10);
      if (shape != 0) {
        Group ll = g.addGroup("list_list");
        int n = shape == 1 ? 0 : r.nextInt(1, 4);
        for (int i = 0; i < n; i++) {
          Group outerEl = ll.addGroup("list");
          int s2 = r.nextInt(7);
          if (s2 == 0) {
            continue; // null inner list
          }
          Group inner = outerEl.addGroup("element");
          int m = s2 == 1 ? 0 : r.nextInt(1, 4);
          for (int j = 0; j < m; j++) {
            Group e = inner.addGroup("list");
            if (r.nextInt(10) != 0) {
              e.add("element", r.nextInt(-1000, 1000));
            }
          }
        }
      }
      int np = r.nextInt(10) < 3 ? 0 : r.nextInt(1, 4);
      for (int i = 0; i < np; i++) {
        Group p = g.addGroup("points");
        p.add("x", r.nextInt(100));
        if (r.nextBoolean()) {
          p.add("y", r.nextInt(100));
        }
      }
    });
    return new GeneratedFile(file, desc);
  }

  /**
   * Schema of the nested-shapes file: what the nested family lacks (lists of structs holding lists,
   * structs of lists, maps with struct and list values, legacy two-level lists, bare repeated
   * primitives and groups, required at every level, logical types inside lists).
   */
  public static final String NESTED_SHAPES_SCHEMA = """
      message shapes {
        required int32 id;
        required group req_struct { required int32 a; optional binary b (STRING); }
        optional group structs (LIST) { repeated group list { optional group element {
          optional int32 x; optional group ys (LIST) { repeated group list { required double element; } } } } }
        optional group s_of_l { optional group nums (LIST) { repeated group list { optional int64 element; } }
          optional binary tag (STRING); }
        optional group m_struct (MAP) { repeated group key_value { required int32 key;
          optional group value { optional binary name (STRING); optional boolean flag; } } }
        optional group m_list (MAP) { repeated group key_value { required binary key (STRING);
          optional group value (LIST) { repeated group list { optional int32 element; } } } }
        optional group legacy (LIST) { repeated int32 array; }
        optional group legacy_struct (LIST) { repeated group array { optional int32 p; optional binary q (STRING); } }
        repeated binary tags (STRING);
        repeated group events { required int64 at (TIMESTAMP(MILLIS,true)); repeated int32 codes; }
        required group all_req (LIST) { repeated group list { required group element { required int32 v;
          required group w (LIST) { repeated group list { required int32 element; } } } } }
        optional group dates (LIST) { repeated group list { optional int32 element (DATE); } }
        optional group decs (LIST) { repeated group list { optional int32 element (DECIMAL(9,2)); } }
        optional group fixed (LIST) { repeated group list { optional fixed_len_byte_array(3) element; } }
      }
      """;

  /**
   * The nested-shapes file: {@code rows} rows with nulls, empty and null lists at every optional
   * level, small pages and row groups (many pages and row groups per file).
   */
  public static GeneratedFile nestedShapes(Path dir, CompressionCodecName codec, boolean v2, boolean dict, int rows,
                                           long seed) {
    MessageType schema = MessageTypeParser.parseMessageType(NESTED_SHAPES_SCHEMA);
    Cfg cfg = Cfg.of(codec, v2, dict).withPages(1024, 50).withRowGroupSize(32 * 1024);
    String name = "nested_shapes_" + codec.name().toLowerCase() + "_" + (v2 ? "v2" : "v1") + (dict ? "_dict" : "")
        + ".parquet";
    Path file = dir.resolve(name);
    SplittableRandom r = new SplittableRandom(seed);
    write(file, schema, cfg, rows, (row, g) -> {
      g.add("id", row);
      Group rs = g.addGroup("req_struct");
      rs.add("a", r.nextInt(-5, 5));
      if (r.nextInt(4) != 0) {
        rs.add("b", "b" + r.nextInt(30));
      }
      if (r.nextInt(8) != 0) {
        Group l = g.addGroup("structs");
        int n = r.nextInt(6) == 0 ? 0 : r.nextInt(1, 5);
        for (int i = 0; i < n; i++) {
          Group slot = l.addGroup("list");
          if (r.nextInt(6) == 0) {
            continue; // null struct element
          }
          Group e = slot.addGroup("element");
          if (r.nextInt(5) != 0) {
            e.add("x", r.nextInt(1000));
          }
          if (r.nextInt(5) != 0) {
            Group ys = e.addGroup("ys");
            int m = r.nextInt(4);
            for (int j = 0; j < m; j++) {
              ys.addGroup("list").add("element", r.nextDouble());
            }
          }
        }
      }
      if (r.nextInt(6) != 0) {
        Group s = g.addGroup("s_of_l");
        if (r.nextInt(5) != 0) {
          Group nums = s.addGroup("nums");
          int n = r.nextInt(5);
          for (int i = 0; i < n; i++) {
            Group slot = nums.addGroup("list");
            if (r.nextInt(5) != 0) {
              slot.add("element", r.nextLong());
            }
          }
        }
        if (r.nextBoolean()) {
          s.add("tag", "t" + r.nextInt(9));
        }
      }
      if (r.nextInt(5) != 0) {
        Group m = g.addGroup("m_struct");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          Group kv = m.addGroup("key_value");
          kv.add("key", i * 7 + r.nextInt(7));
          if (r.nextInt(4) != 0) {
            Group v = kv.addGroup("value");
            if (r.nextInt(3) != 0) {
              v.add("name", "n" + r.nextInt(50));
            }
            if (r.nextInt(3) != 0) {
              v.add("flag", r.nextBoolean());
            }
          }
        }
      }
      if (r.nextInt(5) != 0) {
        Group m = g.addGroup("m_list");
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
          Group kv = m.addGroup("key_value");
          kv.add("key", "k" + i);
          if (r.nextInt(4) != 0) {
            Group v = kv.addGroup("value");
            int k = r.nextInt(4);
            for (int j = 0; j < k; j++) {
              Group slot = v.addGroup("list");
              if (r.nextInt(4) != 0) {
                slot.add("element", r.nextInt(100));
              }
            }
          }
        }
      }
      if (r.nextInt(5) != 0) {
        Group l = g.addGroup("legacy");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          l.add("array", r.nextInt(100));
        }
      }
      if (r.nextInt(5) != 0) {
        Group l = g.addGroup("legacy_struct");
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
          Group a = l.addGroup("array");
          if (r.nextBoolean()) {
            a.add("p", r.nextInt(100));
          }
          if (r.nextBoolean()) {
            a.add("q", "q" + r.nextInt(10));
          }
        }
      }
      int tags = r.nextInt(4);
      for (int i = 0; i < tags; i++) {
        g.add("tags", "tag" + r.nextInt(20));
      }
      int events = r.nextInt(3);
      for (int i = 0; i < events; i++) {
        Group e = g.addGroup("events");
        e.add("at", 1_600_000_000_000L + r.nextInt(1_000_000));
        int codes = r.nextInt(3);
        for (int j = 0; j < codes; j++) {
          e.add("codes", r.nextInt(500));
        }
      }
      Group all = g.addGroup("all_req");
      int n = r.nextInt(3);
      for (int i = 0; i < n; i++) {
        Group e = all.addGroup("list").addGroup("element");
        e.add("v", r.nextInt(10));
        Group w = e.addGroup("w");
        int k = r.nextInt(3);
        for (int j = 0; j < k; j++) {
          w.addGroup("list").add("element", r.nextInt(10));
        }
      }
      if (r.nextInt(4) != 0) {
        Group d = g.addGroup("dates");
        int k = r.nextInt(3);
        for (int j = 0; j < k; j++) {
          Group slot = d.addGroup("list");
          if (r.nextInt(4) != 0) {
            slot.add("element", 18_000 + r.nextInt(1000));
          }
        }
      }
      if (r.nextInt(4) != 0) {
        Group d = g.addGroup("decs");
        int k = r.nextInt(3);
        for (int j = 0; j < k; j++) {
          Group slot = d.addGroup("list");
          if (r.nextInt(4) != 0) {
            slot.add("element", r.nextInt(-100_000, 100_000));
          }
        }
      }
      if (r.nextInt(4) != 0) {
        Group d = g.addGroup("fixed");
        int k = r.nextInt(3);
        for (int j = 0; j < k; j++) {
          Group slot = d.addGroup("list");
          if (r.nextInt(4) != 0) {
            slot.add("element", Binary.fromConstantByteArray(new byte[] {(byte) r.nextInt(256), (byte) j, 7}));
          }
        }
      }
    });
    return new GeneratedFile(file, "nested shapes / " + codec + " / " + (v2 ? "v2" : "v1") + (dict ? " / dict" : "")
        + " / " + rows + " rows");
  }

  /** NaN payload bit patterns written by {@link #nanPayloads}. */
  public static final int[] FLOAT_BITS = {0x7fc00000, 0x7fc00001, 0xffc12345, 0x7f800001, 0xff800000, 0x7f800000,
      0x80000000, 0x00000000, 0x00000001, 0x3f800000};
  public static final long[] DOUBLE_BITS = {0x7ff8000000000000L, 0x7ff8000000000001L, 0xfff0123456789abcL,
      0x7ff0000000000001L, 0xfff0000000000000L, 0x7ff0000000000000L, 0x8000000000000000L, 0L, 1L,
      0x3ff0000000000000L};

  public static List<GeneratedFile> specialFiles(Path dir) {
    List<GeneratedFile> out = new ArrayList<>();
    out.add(nanPayloads(dir));
    MessageType schema = MessageTypeParser.parseMessageType(
        "message s { optional int64 a; required binary b (STRING); optional double c; }");
    Path empty = dir.resolve("special_empty.parquet");
    write(empty, schema, Cfg.of(CompressionCodecName.SNAPPY, false, true), 0, (row, g) -> {
    });
    out.add(new GeneratedFile(empty, "special / empty (no row groups) / SNAPPY / v1 / 0 rows"));
    Path one = dir.resolve("special_one_row.parquet");
    write(one, schema, Cfg.of(CompressionCodecName.ZSTD, true, true), 1, (row, g) -> {
      g.add("a", 42L);
      g.add("b", "é");
    });
    out.add(new GeneratedFile(one, "special / one row, c null / ZSTD / v2 / 1 rows"));
    Path big = dir.resolve("special_large_pages.parquet");
    SplittableRandom r = new SplittableRandom(99);
    write(big, schema, Cfg.of(CompressionCodecName.SNAPPY, false, true).withPages(1 << 20, 20_000)
        .withRowGroupSize(128L << 20), 30_000, (row, g) -> {
          if (row % 10 != 0) {
            g.add("a", r.nextLong());
          }
          g.add("b", "row-" + row);
          g.add("c", r.nextDouble());
        });
    out.add(new GeneratedFile(big, "special / large pages, one row group / SNAPPY / v1 / dict / 30000 rows"));
    return out;
  }

  /** FLOAT and DOUBLE columns holding NaNs with payloads (and other special bits), written raw, PLAIN, V1. */
  public static GeneratedFile nanPayloads(Path dir) {
    MessageType schema = MessageTypeParser.parseMessageType(
        "message nan { required float f; optional double d; }");
    Path file = dir.resolve("special_nan_payloads.parquet");
    Cfg cfg = Cfg.of(CompressionCodecName.UNCOMPRESSED, false, false)
        .withFactory(new CustomFactory(CustomFactory.Kind.RAW_NAN));
    write(file, schema, cfg, FLOAT_BITS.length, (row, g) -> {
      g.add("f", Float.intBitsToFloat(FLOAT_BITS[row]));
      g.add("d", Double.longBitsToDouble(DOUBLE_BITS[row]));
    });
    return new GeneratedFile(file, "special / NaN payloads raw / RAW_NAN / UNCOMPRESSED / v1 / "
        + FLOAT_BITS.length + " rows");
  }

  /**
   * A TPC-H lineitem-shaped table with random data, for scan tests: 4 INT64 keys, 2 DECIMAL(15,2) as INT64 and
   * 2 DOUBLE, 2 single-char strings, 3 DATEs, 3 strings. Dictionary on, V1 pages, default page and row group sizes.
   */
  /**
   * A wide file for memory tests: {@code columns} required INT64 columns of random values,
   * uncompressed, no dictionary, pages of {@code pageSize} bytes, row groups of about
   * {@code rowGroupSize} bytes.
   */
  public static void wideInt64(Path file, int columns, int rows, int pageSize, long rowGroupSize, long seed)
      throws java.io.IOException {
    org.apache.parquet.schema.Types.MessageTypeBuilder b = org.apache.parquet.schema.Types.buildMessage();
    for (int c = 0; c < columns; c++) {
      b.required(org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64).named("c" + c);
    }
    MessageType schema = b.named("wide");
    java.util.Random random = new java.util.Random(seed);
    org.apache.parquet.example.data.simple.SimpleGroupFactory groups =
        new org.apache.parquet.example.data.simple.SimpleGroupFactory(schema);
    try (org.apache.parquet.hadoop.ParquetWriter<org.apache.parquet.example.data.Group> writer =
        org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(
            new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
        .withDictionaryEncoding(false).withPageSize(pageSize).withRowGroupSize(rowGroupSize).build()) {
      for (int r = 0; r < rows; r++) {
        org.apache.parquet.example.data.Group g = groups.newGroup();
        for (int c = 0; c < columns; c++) {
          g.add(c, random.nextLong());
        }
        writer.write(g);
      }
    }
  }

  public static GeneratedFile lineitemLike(Path dir, int rows, CompressionCodecName codec) {
    return lineitemLike(dir, rows, codec, 128L << 20);
  }

  /** {@link #lineitemLike(Path, int, CompressionCodecName)} with row groups of about {@code rowGroupSize} bytes. */
  public static GeneratedFile lineitemLike(Path dir, int rows, CompressionCodecName codec, long rowGroupSize) {
    MessageType schema = MessageTypeParser.parseMessageType("""
        message lineitem {
          required int64 l_orderkey;
          required int64 l_partkey;
          required int64 l_suppkey;
          required int64 l_linenumber;
          required int64 l_quantity (DECIMAL(15,2));
          required int64 l_extendedprice (DECIMAL(15,2));
          required double l_discount;
          required double l_tax;
          required binary l_returnflag (STRING);
          required binary l_linestatus (STRING);
          required int32 l_shipdate (DATE);
          required int32 l_commitdate (DATE);
          required int32 l_receiptdate (DATE);
          required binary l_shipinstruct (STRING);
          required binary l_shipmode (STRING);
          required binary l_comment (STRING);
        }
        """);
    String[] instruct = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    String[] modes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    String[] words = {"furiously", "carefully", "quickly", "blithely", "ironic", "regular", "final", "pending",
        "deposits", "packages", "requests", "accounts", "foxes", "ideas", "theodolites", "pinto", "beans"};
    String rowGroups = rowGroupSize == 128L << 20 ? "" : "_rg" + rowGroupSize;
    Path file = dir.resolve("lineitem_" + rows + "_" + codec.name().toLowerCase() + rowGroups + ".parquet");
    Cfg cfg = new Cfg(codec, false, true, 1 << 20, 20_000, 1 << 20, rowGroupSize, false, false, null);
    SplittableRandom r = new SplittableRandom(4242);
    long[] order = {1};
    int[] line = {0};
    write(file, schema, cfg, rows, (row, g) -> {
      if (line[0] == 0 || r.nextInt(4) == 0) {
        order[0] += r.nextInt(1, 4);
        line[0] = 0;
      }
      line[0]++;
      g.add("l_orderkey", order[0]);
      g.add("l_partkey", r.nextLong(1, 200_001));
      g.add("l_suppkey", r.nextLong(1, 10_001));
      g.add("l_linenumber", (long) line[0]);
      long qty = r.nextLong(1, 51);
      g.add("l_quantity", qty * 100);
      g.add("l_extendedprice", qty * r.nextLong(90_000, 200_000));
      g.add("l_discount", r.nextInt(11) / 100.0);
      g.add("l_tax", r.nextInt(9) / 100.0);
      g.add("l_returnflag", new String[] {"R", "A", "N"}[r.nextInt(3)]);
      g.add("l_linestatus", new String[] {"O", "F"}[r.nextInt(2)]);
      int ship = 8036 + r.nextInt(2526); // 1992-01-02 .. 1998-12-01
      g.add("l_shipdate", ship);
      g.add("l_commitdate", ship + r.nextInt(-60, 60));
      g.add("l_receiptdate", ship + r.nextInt(1, 31));
      g.add("l_shipinstruct", instruct[r.nextInt(instruct.length)]);
      g.add("l_shipmode", modes[r.nextInt(modes.length)]);
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(2, 7);
      for (int i = 0; i < n; i++) {
        sb.append(i == 0 ? "" : " ").append(words[r.nextInt(words.length)]);
      }
      g.add("l_comment", sb.toString());
    });
    return new GeneratedFile(file, "lineitem / dict / " + codec + " / v1 / " + rows + " rows");
  }

  // ------------------------------------------------------------------------------------------------ values

  /** Deterministic value of a kind for a key: Boolean, Integer, Long, Float, Double or byte[]. */
  public static Object value(Kind k, long key) {
    if (key >= 0 && key < 100_000_000L) { // the few-distinct pools: cache
      return POOL.computeIfAbsent(((long) k.ordinal() << 40) | key, x -> computeValue(k, key));
    }
    return computeValue(k, key);
  }

  private static final java.util.concurrent.ConcurrentHashMap<Long, Object> POOL =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final BigInteger E18 = BigInteger.TEN.pow(18);

  /** A random decimal unscaled value with up to 18 + digits(hiBound - 1) digits, either sign. */
  private static BigInteger decimal(SplittableRandom r, long hiBound) {
    BigInteger v = BigInteger.valueOf(r.nextLong(hiBound)).multiply(E18)
        .add(BigInteger.valueOf(r.nextLong(1_000_000_000_000_000_000L)));
    return r.nextBoolean() ? v : v.negate();
  }

  private static Object computeValue(Kind k, long key) {
    SplittableRandom r = new SplittableRandom(key * 0x9E3779B97F4A7C15L + k.ordinal());
    int special = r.nextInt(64);
    return switch (k) {
      case BOOL -> r.nextBoolean();
      case I32 -> special == 0 ? Integer.MIN_VALUE : special == 1 ? Integer.MAX_VALUE : special == 2 ? 0
          : special < 20 ? r.nextInt(-100, 100) : r.nextInt();
      case I8 -> r.nextInt(-128, 128);
      case I16 -> r.nextInt(-32768, 32768);
      case U8 -> r.nextInt(256);
      case U16 -> r.nextInt(65536);
      case U32 -> r.nextInt();
      case DATE -> r.nextInt(-25_000, 50_000);
      case TIME_MS -> r.nextInt(86_400_000);
      case DEC9 -> r.nextInt(-999_999_999, 1_000_000_000);
      case I64 -> special == 0 ? Long.MIN_VALUE : special == 1 ? Long.MAX_VALUE : special == 2 ? 0L
          : special < 20 ? r.nextLong(-1000, 1000) : r.nextLong();
      case U64 -> r.nextLong();
      case TS_MS -> r.nextLong(-2_000_000_000_000L, 4_000_000_000_000L);
      case TS_US -> r.nextLong(-2_000_000_000_000_000L, 4_000_000_000_000_000L);
      case TS_NS -> r.nextLong(-4_000_000_000_000_000_000L, 4_000_000_000_000_000_000L);
      case TIME_US -> r.nextLong(86_400_000_000L);
      case DEC18 -> r.nextLong(-999_999_999_999_999_999L, 1_000_000_000_000_000_000L);
      case I96 -> ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
          .putLong(r.nextLong(86_400_000_000_000L)).putInt(r.nextInt(2_400_000, 2_500_000)).array();
      case F32 -> switch (special) {
        case 0 -> Float.NaN;
        case 1 -> Float.POSITIVE_INFINITY;
        case 2 -> Float.NEGATIVE_INFINITY;
        case 3 -> -0.0f;
        case 4 -> 0.0f;
        case 5 -> Float.MIN_VALUE;
        case 6 -> Float.MAX_VALUE;
        default -> (float) (r.nextGaussian() * 1000);
      };
      case F64 -> switch (special) {
        case 0 -> Double.NaN;
        case 1 -> Double.POSITIVE_INFINITY;
        case 2 -> Double.NEGATIVE_INFINITY;
        case 3 -> -0.0;
        case 4 -> 0.0;
        case 5 -> Double.MIN_VALUE;
        case 6 -> -Double.MAX_VALUE;
        default -> r.nextGaussian() * 1e6;
      };
      case BIN -> {
        byte[] b = new byte[special < 4 ? 0 : r.nextInt(1, 40)];
        r.nextBytes(b);
        yield b;
      }
      case STR -> string(r, special).getBytes(StandardCharsets.UTF_8);
      case ENUM -> new String[] {"RED", "GREEN", "BLUE", "CYAN", "MAGENTA", "YELLOW", "BLACK"}[r.nextInt(7)]
          .getBytes(StandardCharsets.UTF_8);
      case JSON -> ("{\"id\":" + r.nextInt(100_000) + ",\"name\":\"" + string(r, 10 + r.nextInt(50))
          .replace("\\", "").replace("\"", "") + "\",\"ok\":" + r.nextBoolean() + "}")
          .getBytes(StandardCharsets.UTF_8);
      case DEC30 -> decimal(r, 1_000_000_000_000L).toByteArray();
      case UUID -> bytes(r, 16);
      case DEC25 -> {
        BigInteger v = decimal(r, 10_000_000L);
        byte[] minimal = v.toByteArray();
        byte[] out = new byte[12];
        java.util.Arrays.fill(out, v.signum() < 0 ? (byte) 0xff : 0);
        System.arraycopy(minimal, 0, out, 12 - minimal.length, minimal.length);
        yield out;
      }
      case FIX3 -> bytes(r, 3);
    };
  }

  private static byte[] bytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static final String[] MULTI = {"é", "ß", "ü", "Ω", "ж", "ש", "ع", "€", "✓", "日本", "語", "한", "😀", "🚀",
      "\u0000", "a", "b", " ", "z", "Z"};

  private static String string(SplittableRandom r, int special) {
    if (special < 3) {
      return "";
    }
    if (special == 3) { // ~1.5%: long string
      int n = r.nextInt(1000, 4000);
      StringBuilder sb = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        sb.append((char) ('a' + r.nextInt(26)));
      }
      return sb.toString();
    }
    int n = r.nextInt(1, 24);
    StringBuilder sb = new StringBuilder();
    boolean multi = special < 16;
    for (int i = 0; i < n; i++) {
      sb.append(multi ? MULTI[r.nextInt(MULTI.length)] : String.valueOf((char) ('a' + r.nextInt(26))));
    }
    return sb.toString();
  }

  static void addValue(Group g, String field, Object v) {
    if (v instanceof Boolean b) {
      g.add(field, b);
    } else if (v instanceof Integer i) {
      g.add(field, i);
    } else if (v instanceof Long l) {
      g.add(field, l);
    } else if (v instanceof Float f) {
      g.add(field, f);
    } else if (v instanceof Double d) {
      g.add(field, d);
    } else if (v instanceof byte[] b) {
      g.add(field, Binary.fromConstantByteArray(b));
    } else {
      throw new IllegalArgumentException(String.valueOf(v));
    }
  }

  // ------------------------------------------------------------------------------------------------ writing

  interface RowFiller {
    void fill(int row, Group g);
  }

  private static final Field ENCODING_PROPS;

  static {
    try {
      ENCODING_PROPS = ParquetWriter.Builder.class.getDeclaredField("encodingPropsBuilder");
      ENCODING_PROPS.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  static void write(Path file, MessageType schema, Cfg cfg, int rows, RowFiller filler) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      ExampleParquetWriter.Builder b = ExampleParquetWriter.builder(new LocalOutputFile(file))
          .withConf(new Configuration(CONF)) // GroupWriteSupport stores the schema in the conf: one per writer
          .withType(schema)
          .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
          .withCompressionCodec(cfg.codec())
          .withWriterVersion(cfg.v2() ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
          .withDictionaryEncoding(cfg.dictionary())
          .withPageSize(cfg.pageSize())
          .withPageRowCountLimit(cfg.pageRows())
          .withDictionaryPageSize(cfg.dictPageSize())
          .withRowGroupSize(cfg.rowGroupSize())
          .withPageWriteChecksumEnabled(cfg.checksums())
          .withByteStreamSplitEncoding(cfg.bss())
          .withValidation(false);
      // ParquetWriter.Builder does not expose these two ParquetProperties settings.
      ParquetProperties.Builder props = (ParquetProperties.Builder) ENCODING_PROPS.get(b);
      if (cfg.bss()) {
        props.withExtendedByteStreamSplitEncoding(true); // INT32, INT64, FIXED_LEN_BYTE_ARRAY too
      }
      // Always a fresh factory: ParquetProperties' default is one static DefaultValuesWriterFactory that every writer
      // re-initialises with its own properties, so writers running concurrently get each other's encodings.
      // DefaultValuesWriterFactory itself delegates to static V1/V2 factories, so take a fresh V1/V2 one.
      props.withValuesWriterFactory(cfg.factory() != null ? cfg.factory() : freshDefaultFactory(cfg.v2()));
      try (ParquetWriter<Group> w = b.build()) {
        for (int row = 0; row < rows; row++) {
          Group g = new SimpleGroup(schema);
          filler.fill(row, g);
          w.write(g);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** parquet-java's default values-writer factory for a writer version, as a new (unshared) instance. */
  static ValuesWriterFactory freshDefaultFactory(boolean v2) {
    return v2 ? new DefaultV2ValuesWriterFactory() : new DefaultV1ValuesWriterFactory();
  }

  /** Values-writer factory for setups parquet-java does not offer. */
  static final class CustomFactory implements ValuesWriterFactory {
    enum Kind {
      /** PLAIN for every type (with V2 pages). */
      PLAIN_ALL,
      /** DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY columns, default otherwise. */
      DELTA_LENGTH,
      /** PLAIN with raw float/double bits (no NaN canonicalisation), default otherwise. */
      RAW_NAN
    }

    private final Kind kind;
    private ValuesWriterFactory delegate;
    private ParquetProperties props;

    CustomFactory(Kind kind) {
      this.kind = kind;
    }

    @Override
    public void initialize(ParquetProperties properties) {
      this.props = properties;
      this.delegate = freshDefaultFactory(properties.getWriterVersion() == WriterVersion.PARQUET_2_0);
      delegate.initialize(properties);
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor d) {
      int slab = props.getInitialSlabSize();
      int page = props.getPageSizeThreshold();
      PrimitiveTypeName t = d.getPrimitiveType().getPrimitiveTypeName();
      switch (kind) {
        case PLAIN_ALL:
          return switch (t) {
            case BOOLEAN -> new BooleanPlainValuesWriter();
            case FIXED_LEN_BYTE_ARRAY -> new FixedLenByteArrayPlainValuesWriter(d.getPrimitiveType().getTypeLength(),
                slab, page, props.getAllocator());
            // INT96 is 12 fixed bytes: PlainValuesWriter would length-prefix it (found by oracleReturnsWhatWasWritten)
            case INT96 -> new FixedLenByteArrayPlainValuesWriter(12, slab, page, props.getAllocator());
            default -> new PlainValuesWriter(slab, page, props.getAllocator());
          };
        case DELTA_LENGTH:
          if (t == PrimitiveTypeName.BINARY) {
            return new DeltaLengthByteArrayValuesWriter(slab, page, props.getAllocator());
          }
          return delegate.newValuesWriter(d);
        case RAW_NAN:
          if (t == PrimitiveTypeName.FLOAT || t == PrimitiveTypeName.DOUBLE) {
            return new RawFloatingPlainWriter();
          }
          return delegate.newValuesWriter(d);
        default:
          throw new AssertionError(kind);
      }
    }
  }

  /** PLAIN writer for FLOAT/DOUBLE keeping the raw bits (parquet-java's uses floatToIntBits). */
  static final class RawFloatingPlainWriter extends ValuesWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteBuffer buf = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    @Override
    public void writeFloat(float v) {
      buf.clear();
      out.write(buf.putInt(Float.floatToRawIntBits(v)).array(), 0, 4);
    }

    @Override
    public void writeDouble(double v) {
      buf.clear();
      out.write(buf.putLong(Double.doubleToRawLongBits(v)).array(), 0, 8);
    }

    @Override
    public long getBufferedSize() {
      return out.size();
    }

    @Override
    public BytesInput getBytes() {
      return BytesInput.from(out.toByteArray());
    }

    @Override
    public Encoding getEncoding() {
      return Encoding.PLAIN;
    }

    @Override
    public void reset() {
      out.reset();
    }

    @Override
    public long getAllocatedSize() {
      return out.size();
    }

    @Override
    public String memUsageString(String prefix) {
      return prefix + " RawFloatingPlainWriter " + out.size();
    }
  }
}
