package io.turboparquet.bench;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterOptions.ColumnSelector;
import io.turboparquet.format.thrift.FooterDecoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Footer decoding of wide files, after the public Parquet footer-parsing benchmark: 20 row groups
 * x 1000 rows, N required columns, all FLOAT or all short strings, with or without statistics.
 * Files are written once with parquet-java's low-level writer and kept under
 * {@code target/footer-bench} as sparse copies: the leading magic and the footer, the data pages
 * replaced by a hole (every footer reader, pyarrow's included, reads them like the original; a
 * 10000-column file would otherwise take 1-2 GB).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FooterBenchmark {
  static final int ROW_GROUPS = 20;
  static final int ROWS = 1000;
  static final int PROJECTED = 10;

  @Param({"100", "1000", "10000"})
  public int columns;

  @Param({"FLOAT", "STRING"})
  public String type;

  @Param({"true", "false"})
  public boolean statistics;

  private byte[] footer;
  private String name;
  private long fileLength;
  private FooterOptions full;
  private FooterOptions noStatistics;
  private FooterOptions projected;

  @Setup
  public void setUp() throws IOException {
    Path file = file(columns, type, statistics);
    if (!Files.exists(file)) {
      Path written = file.resolveSibling(file.getFileName() + ".full");
      write(written, columns, type.equals("FLOAT"), statistics);
      keepFooterOnly(written, file);
      Files.delete(written);
    }
    footer = readFooter(file);
    name = file.toString();
    fileLength = Files.size(file);
    full = FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL);
    noStatistics = FooterOptions.DEFAULT;
    int[] chosen = new int[PROJECTED];
    for (int i = 0; i < PROJECTED; i++) {
      chosen[i] = i * (columns / PROJECTED); // spread over the schema
    }
    projected = FooterOptions.DEFAULT.withColumns(ColumnSelector.leaves(chosen))
        .withStatistics(ColumnSelector.leaves(chosen));
    System.out.printf("%n%s: footer %d bytes%n", file.getFileName(), footer.length);
  }

  /** Every column chunk with its statistics: what parquet-java's NO_FILTER path also builds. */
  @Benchmark
  public FileMetadata turboFull() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, full);
  }

  /** Every column chunk, statistics skipped (arrow-rs's "skip statistics" decode). */
  @Benchmark
  public FileMetadata turboNoStats() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, noStatistics);
  }

  /** 10 of N columns (with statistics); the rest skipped. */
  @Benchmark
  public FileMetadata turboProjected() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, projected);
  }

  @Benchmark
  public ParquetMetadata parquetJavaNoFilter() throws IOException {
    return new ParquetMetadataConverter().readParquetMetadata(new ByteArrayInputStream(footer),
        ParquetMetadataConverter.NO_FILTER);
  }

  /** parquet-format's generated Thrift classes only, no conversion. */
  @Benchmark
  public FileMetaData parquetJavaThriftOnly() throws IOException {
    return Util.readFileMetaData(new ByteArrayInputStream(footer));
  }

  /** Where the (sparse) file for one parameter combination is kept. */
  static Path file(int columns, String type, boolean statistics) {
    return Paths.get("target", "footer-bench", "wide_" + columns + "_" + type + "_" + (statistics ? "stats"
        : "nostats") + ".parquet").toAbsolutePath();
  }

  /** The footer's Thrift bytes. */
  static byte[] readFooter(Path file) throws IOException {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      byte[] tail = new byte[8];
      in.seek(in.length() - 8);
      in.readFully(tail);
      int length = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      byte[] footer = new byte[length];
      in.seek(in.length() - 8 - length);
      in.readFully(footer);
      return footer;
    }
  }

  /** Copies the magic and the footer (with its tail) of {@code from} into a sparse file of the same length. */
  static void keepFooterOnly(Path from, Path to) throws IOException {
    byte[] footer = readFooter(from);
    long length = Files.size(from);
    Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
    try (RandomAccessFile out = new RandomAccessFile(tmp.toFile(), "rw")) {
      out.setLength(0);
      out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
      out.seek(length - 8 - footer.length);
      out.write(footer);
      byte[] tail = new byte[8];
      ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length).put("PAR1".getBytes(
          StandardCharsets.US_ASCII));
      out.write(tail);
    }
    Files.move(tmp, to);
  }

  static void write(Path file, int columns, boolean floats, boolean withStatistics) throws IOException {
    Files.createDirectories(file.getParent());
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (int c = 0; c < columns; c++) {
      if (floats) {
        builder.required(PrimitiveTypeName.FLOAT).named("c" + c);
      } else {
        builder.required(PrimitiveTypeName.BINARY).as(org.apache.parquet.schema.LogicalTypeAnnotation.stringType())
            .named("c" + c);
      }
    }
    MessageType schema = builder.named("wide");
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Random random = new Random(columns);
    PlainPagesFile.write(tmp, schema, ROW_GROUPS, ROWS, floats ? 4 * ROWS : 8 * ROWS, (g, column, page, stats) -> {
      for (int i = 0; i < ROWS; i++) {
        if (floats) {
          float v = random.nextFloat();
          page.putFloat(v);
          if (withStatistics) {
            stats.updateStats(v);
          }
        } else {
          byte[] s = ("s" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
          page.putInt(s.length).put(s);
          if (withStatistics) {
            stats.updateStats(Binary.fromConstantByteArray(s));
          }
        }
      }
    });
    Files.move(tmp, file);
    Files.deleteIfExists(tmp.resolveSibling("." + tmp.getFileName() + ".crc"));
  }
}
