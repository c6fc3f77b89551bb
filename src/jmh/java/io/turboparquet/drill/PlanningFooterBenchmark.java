package io.turboparquet.drill;

import io.turboparquet.bench.GeneratePlanningTables;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.thrift.FooterDecoder;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
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
 * The stages of one file's planning metadata, from footer bytes in memory: parquet-java's decode
 * (what Drill's own planning pays per file); ours; Drill's {@code Metadata_V4} made directly from
 * ours ({@link DrillFileMetadata}, what turbo-parquet's planning does); and the detour it replaced,
 * our footer converted to parquet-java's ({@link ParquetJavaFooters}) then Drill's collector over it.
 * One 1000-column x 20-row-group file of bench/planning.sh's wide table.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PlanningFooterBenchmark {
  @Param({"1000"})
  public int columns;

  private byte[] footer;
  private FileMetadata decoded;
  private ParquetMetadata parquetJava;
  private FileStatus status;
  private FileSystem fs;
  private ParquetReaderConfig config;
  private ParquetReadOptions options;

  @Setup
  public void setup() throws Exception {
    Path file = Files.createTempDirectory("planning-footer").resolve("wide.parquet");
    GeneratePlanningTables.write(file, columns, 20, 1);
    fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    status = fs.getFileStatus(path);
    try (FSDataInputStream in = fs.open(path)) {
      footer = io.turboparquet.format.FooterReader.readFooterBytes(in, path.toString(), status.getLen());
    }
    config = ParquetReaderConfig.getDefaultInstance();
    options = config.toReadOptions();
    decoded = turboDecode();
    parquetJava = parquetJavaDecode();
  }

  @Benchmark
  public ParquetMetadata parquetJavaDecode() throws Exception {
    return new ParquetMetadataConverter(options).readParquetMetadata(new ByteArrayInputStream(footer),
        ParquetMetadataConverter.NO_FILTER);
  }

  @Benchmark
  public FileMetadata turboDecode() throws Exception {
    return FooterDecoder.decode(status.getPath().toString(), status.getLen(), footer, 0, footer.length, FooterCache.OPTIONS);
  }

  @Benchmark
  public ParquetMetadata turboConvert() throws Exception {
    return ParquetJavaFooters.of(decoded, options, null);
  }

  /** What planning does now: Drill's metadata made directly from our footer ({@link DrillFileMetadata}). */
  @Benchmark
  public Metadata_V4.ParquetFileAndRowCountMetadata turboDirect() throws Exception {
    return DrillFileMetadata.of(decoded, status, fs, config, new DrillFileMetadata.Typing(false, false)).file();
  }

  @Benchmark
  public Metadata_V4.ParquetFileAndRowCountMetadata drillCollector() throws Exception {
    return Metadata.getParquetFileMetadata_v4(new Metadata_V4.ParquetTableMetadata_v4(), parquetJava, status, fs,
        true, false, null, config);
  }
}
