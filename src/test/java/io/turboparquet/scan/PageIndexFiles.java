package io.turboparquet.scan;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Files with page indexes written by parquet-java for the page-skipping tests: many pages per
 * chunk whose boundaries differ between columns (a row limit per page and a small page size that
 * wide strings reach first), sorted ascending and descending and unsorted columns, nulls with
 * all-null stretches (null pages), NaN in a double column, long strings whose index bounds are
 * truncated, decimals and dates; several row groups.
 */
public final class PageIndexFiles {
  static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t {"
      + " required int64 key;" // ascending
      + " required int32 down;" // descending
      + " optional int32 small;" // unsorted, nulls, all-null stretches
      + " optional double d;" // unsorted, some NaN
      + " optional float f;" // unsorted, no NaN
      + " optional binary s (STRING);" // long strings sharing prefixes: truncated bounds
      + " optional binary mode (STRING);" // few distinct values, dictionary
      + " optional int32 day (DATE);" // ascending with nulls
      + " optional fixed_len_byte_array(9) dec (DECIMAL(20,2));" // unsorted, negatives
      + " optional int64 price (DECIMAL(12,2));"
      + "}");
  static final String[] MODES = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};

  private PageIndexFiles() {}

  /** {@code OUT ROWS PAGE_ROWS}: writes {@link #writeSorted} (bench/page-index.sh). */
  public static void main(String[] args) throws IOException {
    writeSorted(Path.of(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
  }

  /** parquet-java's writer of {@code schema} to {@code file}: V2 pages, ZSTD, no dictionary when {@code v2}, else V1, SNAPPY, dictionaries. */
  static ExampleParquetWriter.Builder writer(Path file, MessageType schema, boolean v2) {
    return ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withType(schema)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withCompressionCodec(v2 ? CompressionCodecName.ZSTD : CompressionCodecName.SNAPPY)
        .withWriterVersion(v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
        .withDictionaryEncoding(!v2);
  }

  /** {@code rows} rows; v2 pages and no dictionary when {@code v2}. */
  public static void write(Path file, int rows, boolean v2, long seed) throws IOException {
    write(file, rows, v2, seed, 1 << 20);
  }

  /**
   * {@link #write(Path, int, boolean, long)} with dictionaries of at most {@code dictionaryBytes}:
   * a small one fills early, and the rest of its chunk is written in plain pages.
   */
  static void write(Path file, int rows, boolean v2, long seed, int dictionaryBytes) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = writer(file, SCHEMA, v2)
        .withDictionaryPageSize(dictionaryBytes)
        .withPageRowCountLimit(700)
        .withPageSize(4096)
        .withRowGroupSize(256 * 1024)
        .withColumnIndexTruncateLength(12)
        .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        g.add("key", 3L * i + (i % 2));
        g.add("down", rows - 2 * i);
        boolean nullStretch = (i / 2500) % 5 == 3;
        if (!nullStretch && r.nextInt(10) != 0) {
          g.add("small", r.nextInt(-5000, 5000));
        }
        if (r.nextInt(20) != 0) {
          g.add("d", r.nextInt(400) == 0 ? Double.NaN : r.nextDouble(-1000, 1000));
        }
        if (r.nextInt(15) != 0) {
          g.add("f", (float) r.nextDouble(-50, 50));
        }
        if (r.nextInt(8) != 0) {
          StringBuilder sb = new StringBuilder("prefix-").append((char) ('a' + (i * 26L / rows)));
          int len = r.nextInt(0, 60);
          for (int k = 0; k < len; k++) {
            sb.append((char) ('a' + r.nextInt(26)));
          }
          g.add("s", sb.toString());
        }
        if (!nullStretch) {
          g.add("mode", MODES[r.nextInt(MODES.length)]);
        }
        if (r.nextInt(30) != 0) {
          g.add("day", 9000 + i / 40);
        }
        if (r.nextInt(12) != 0) {
          BigInteger unscaled = BigInteger.valueOf(r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L));
          g.add("dec", Binary.fromConstantByteArray(fixed(unscaled, 9)));
        }
        if (r.nextInt(12) != 0) {
          g.add("price", new BigDecimal(BigInteger.valueOf(r.nextLong(0, 10_000_000)), 2).unscaledValue().longValue());
        }
        w.write(g);
      }
    }
  }

  /** {@code v} as big-endian two's complement in {@code width} bytes (a FIXED_LEN_BYTE_ARRAY decimal). */
  static byte[] fixed(BigInteger v, int width) {
    byte[] b = v.toByteArray();
    byte[] out = new byte[width];
    byte pad = (byte) (v.signum() < 0 ? 0xFF : 0);
    for (int i = 0; i < width - b.length; i++) {
      out[i] = pad;
    }
    System.arraycopy(b, 0, out, width - b.length, b.length);
    return out;
  }

  /** 2M-row style table for the benchmark: sorted int64 key and a few other columns (see docs/benchmarks.md). */
  public static void writeSorted(Path file, int rows, int pageRows) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message t { required int64 key; required int32 qty;"
        + " required double price; required binary comment (STRING); required int32 day (DATE); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    SplittableRandom r = new SplittableRandom(7);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withType(schema)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withPageRowCountLimit(pageRows)
        .withPageSize(8 << 20)
        .withRowGroupSize(128L << 20)
        .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        g.add("key", (long) i);
        g.add("qty", r.nextInt(1, 51));
        g.add("price", r.nextDouble(900, 105000));
        g.add("comment", "c" + Long.toString(r.nextLong(1L << 40), 36) + " regular deposits");
        g.add("day", 8000 + i / 1000);
        w.write(g);
      }
    }
  }
}
