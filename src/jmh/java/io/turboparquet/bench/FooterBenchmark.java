package io.turboparquet.bench;

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
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Footer decoding of wide files, after the public Parquet footer-parsing benchmark: 20 row groups
 * x 1000 rows, N required columns, all FLOAT or all short strings, with or without statistics.
 * Files are written once with parquet-java's low-level writer and kept under
 * {@code target/footer-bench} as sparse copies: the leading magic and the footer, the data pages
 * replaced by a hole (every footer reader, pyarrow's included, reads them like the original; a
 * 10000-column file would otherwise take 1-2 GB). The decodes are {@link FooterBenchmarkBase}'s and
 * parquet-java's Thrift-only read.
 */
public class FooterBenchmark extends FooterBenchmarkBase {
  static final int ROW_GROUPS = 20;
  static final int ROWS = 1000;

  @Param({"100", "1000", "10000"})
  public int columns;

  @Param({"FLOAT", "STRING"})
  public String type;

  @Param({"true", "false"})
  public boolean statistics;

  @Setup
  public void setUp() throws IOException {
    load(ensureFile(columns, type, statistics), columns);
  }

  /** parquet-format's generated Thrift classes only, no conversion. */
  @Benchmark
  public FileMetaData parquetJavaThriftOnly() throws IOException {
    return Util.readFileMetaData(new ByteArrayInputStream(footer));
  }

  /** The (sparse) file for one parameter combination, written first if it is missing. */
  static Path ensureFile(int columns, String type, boolean statistics) throws IOException {
    Path file = file(columns, type, statistics);
    if (!Files.exists(file)) {
      Path written = file.resolveSibling(file.getFileName() + ".full");
      write(written, columns, type.equals("FLOAT"), statistics);
      keepFooterOnly(written, file);
      Files.delete(written);
    }
    return file;
  }

  /** Where the (sparse) file for one parameter combination is kept. */
  static Path file(int columns, String type, boolean statistics) {
    return Paths.get("target", "footer-bench", "wide_" + columns + "_" + type + "_" + (statistics ? "stats"
        : "nostats") + ".parquet").toAbsolutePath();
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
