package io.turboparquet.drill.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * The soak's files, written deterministically by parquet-java from a row count: a fact table
 * sorted by {@code id} (aggregations, range filters, LIMIT), a wide one (200 columns), a nested one
 * (a struct and a repeated column) and two corrupt ones that every reader must refuse: one cut in
 * its pages (no footer), one whose data page header is garbage.
 */
public final class SoakFiles {
  static final int WIDE_COLUMNS = 200;
  static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
      "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa"};
  private static final MessageType FACTS = MessageTypeParser.parseMessageType("message facts {"
      + " required int64 id; required int32 k; optional int64 q; required double price;"
      + " optional binary s (STRING); required int32 dt (DATE); }");
  private static final MessageType NESTED = MessageTypeParser.parseMessageType("message nested {"
      + " required int64 id; optional group point { required int64 x; required double y; }"
      + " repeated int64 vals; }");

  final Path dir;
  final long factRows;

  private SoakFiles(Path dir, long factRows) {
    this.dir = dir;
    this.factRows = factRows;
  }

  Path facts() {
    return dir.resolve("facts.parquet");
  }

  Path wide() {
    return dir.resolve("wide.parquet");
  }

  Path nested() {
    return dir.resolve("nested.parquet");
  }

  Path truncated() {
    return dir.resolve("corrupt-truncated.parquet");
  }

  Path badPageHeader() {
    return dir.resolve("corrupt-page-header.parquet");
  }

  /** The files for {@code factRows} rows of facts in {@code dir}, written unless there from an earlier run. */
  public static SoakFiles write(Path dir, long factRows) throws IOException {
    SoakFiles files = new SoakFiles(Files.createDirectories(dir.resolve("soak-" + factRows)), factRows);
    if (Files.exists(files.badPageHeader())) {
      return files;
    }
    SimpleGroupFactory facts = new SimpleGroupFactory(FACTS);
    Random random = new Random(1);
    try (ParquetWriter<Group> w = writer(files.facts(), FACTS, CompressionCodecName.SNAPPY, 4 << 20)) {
      for (long id = 0; id < factRows; id++) {
        Group g = facts.newGroup().append("id", id).append("k", (int) (id % 97))
            .append("price", Math.round(random.nextDouble() * 100_000) / 100.0)
            .append("dt", 18_000 + (int) (id * 3_000 / factRows));
        if (id % 11 != 5) {
          g.append("q", (long) random.nextInt(1_000_000));
          g.append("s", WORDS[random.nextInt(WORDS.length)]);
        }
        w.write(g);
      }
    }
    StringBuilder wideSchema = new StringBuilder("message wide { required int64 id;");
    for (int c = 0; c < WIDE_COLUMNS; c++) {
      wideSchema.append(c % 2 == 0 ? " optional int64 c" : " optional int32 c").append(c).append(';');
    }
    MessageType wide = MessageTypeParser.parseMessageType(wideSchema.append(" }").toString());
    SimpleGroupFactory wideRows = new SimpleGroupFactory(wide);
    try (ParquetWriter<Group> w = writer(files.wide(), wide, CompressionCodecName.SNAPPY, 8 << 20)) {
      for (long id = 0; id < factRows / 40; id++) {
        Group g = wideRows.newGroup().append("id", id);
        for (int c = 0; c < WIDE_COLUMNS; c++) {
          if ((id + c) % 13 != 0) {
            if (c % 2 == 0) {
              g.append("c" + c, random.nextInt(1 << 20) * (long) (c + 1));
            } else {
              g.append("c" + c, random.nextInt(1000));
            }
          }
        }
        w.write(g);
      }
    }
    SimpleGroupFactory nested = new SimpleGroupFactory(NESTED);
    try (ParquetWriter<Group> w = writer(files.nested(), NESTED, CompressionCodecName.SNAPPY, 4 << 20)) {
      for (long id = 0; id < factRows / 4; id++) {
        Group g = nested.newGroup().append("id", id);
        if (id % 9 != 4) {
          g.addGroup("point").append("x", (long) random.nextInt(100_000)).append("y", random.nextInt(1000) / 8.0);
        }
        for (int v = random.nextInt(5); v > 0; v--) {
          g.add("vals", (long) random.nextInt(10_000));
        }
        w.write(g);
      }
    }
    // The corrupt files start from a small intact fact file (one row group, uncompressed pages).
    Path intact = dir.resolve("soak-intact.tmp");
    Files.deleteIfExists(intact);
    try (ParquetWriter<Group> w = writer(intact, FACTS, CompressionCodecName.UNCOMPRESSED, 64 << 20)) {
      for (long id = 0; id < 20_000; id++) {
        w.write(facts.newGroup().append("id", id).append("k", (int) (id % 97)).append("q", id * 7)
            .append("price", id / 4.0).append("s", WORDS[(int) (id % WORDS.length)]).append("dt", 18_000));
      }
    }
    byte[] bytes = Files.readAllBytes(intact);
    Files.write(files.truncated(), Arrays.copyOf(bytes, bytes.length / 2));
    long header;
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(intact.toUri()), new Configuration()))) {
      ColumnChunkMetaData q = reader.getFooter().getBlocks().get(0).getColumns().get(2);
      header = q.getFirstDataPageOffset();
    }
    // 0xFF: a Thrift compact field header of type 15, which no PageHeader field has.
    Arrays.fill(bytes, (int) header, (int) header + 4, (byte) 0xFF);
    Files.write(files.badPageHeader(), bytes);
    Files.delete(intact);
    return files;
  }

  private static ParquetWriter<Group> writer(Path file, MessageType schema, CompressionCodecName codec, int rowGroupBytes)
      throws IOException {
    Files.deleteIfExists(file);
    return ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withType(schema)
        .withCompressionCodec(codec)
        .withRowGroupSize((long) rowGroupBytes)
        .withPageSize(256 << 10)
        .withWriterVersion(WriterVersion.PARQUET_1_0)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .build();
  }
}
