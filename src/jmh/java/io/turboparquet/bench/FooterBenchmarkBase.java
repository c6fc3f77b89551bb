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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The footer decodes every footer benchmark times, on one file's footer bytes held in memory: a
 * subclass picks the file in its {@code @Setup} and calls {@link #load}. {@link FooterBenchmark}
 * reads parquet-java-written wide files, {@link FooterWritersBenchmark} other writers' files.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class FooterBenchmarkBase {
  /** Columns {@link #turboProjected} decodes, spread over the schema ({@link #projectedLeaves}). */
  static final int PROJECTED = 10;

  /** Every chunk with its statistics: what parquet-java's NO_FILTER path also builds. */
  static final FooterOptions FULL = FooterOptions.DEFAULT.withStatistics(ColumnSelector.ALL);

  byte[] footer;
  String name;
  long fileLength;
  FooterOptions projected;

  /** Reads {@code file}'s footer bytes; {@code leaves} is its number of leaf columns. */
  void load(Path file, int leaves) throws IOException {
    footer = readFooter(file);
    name = file.toString();
    fileLength = Files.size(file);
    int[] chosen = projectedLeaves(leaves);
    projected = FooterOptions.DEFAULT.withColumns(ColumnSelector.leaves(chosen))
        .withStatistics(ColumnSelector.leaves(chosen));
    System.out.printf("%n%s: footer %d bytes%n", file.getFileName(), footer.length);
  }

  /** Every column chunk with its statistics. */
  @Benchmark
  public FileMetadata turboFull() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, FULL);
  }

  /** Every column chunk, statistics skipped (arrow-rs's "skip statistics" decode). */
  @Benchmark
  public FileMetadata turboNoStats() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, FooterOptions.DEFAULT);
  }

  /** 10 of N columns (with statistics); the rest skipped. */
  @Benchmark
  public FileMetadata turboProjected() throws IOException {
    return FooterDecoder.decode(name, fileLength, footer, 0, footer.length, projected);
  }

  @Benchmark
  public ParquetMetadata parquetJavaNoFilter() throws IOException {
    return parquetJava(footer);
  }

  /** parquet-java's full footer read: {@code readParquetMetadata(stream, NO_FILTER)}. */
  static ParquetMetadata parquetJava(byte[] footer) throws IOException {
    return new ParquetMetadataConverter().readParquetMetadata(new ByteArrayInputStream(footer),
        ParquetMetadataConverter.NO_FILTER);
  }

  /**
   * The leaf columns of a projected decode: 10 spread over the schema, {@code i * (leaves / 10)}
   * (bench/footer-arrow-rs's {@code stats10} keeps the same ones).
   */
  static int[] projectedLeaves(int leaves) {
    int[] chosen = new int[PROJECTED];
    for (int i = 0; i < PROJECTED; i++) {
      chosen[i] = i * (leaves / PROJECTED);
    }
    return chosen;
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
}
