package io.turboparquet.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * A partitioned table for the Drill tests: year=Y/month=M/part.parquet, the key sorted across the
 * whole table (so row groups have disjoint key ranges), several row groups per file, and nulls in
 * two columns.
 */
final class SalesTable {
  static final int YEARS = 3;
  static final int MONTHS = 2;
  static final int ROWS_PER_FILE = 6_000;
  static final long ROWS = (long) YEARS * MONTHS * ROWS_PER_FILE;

  private SalesTable() {
  }

  static void write(Path table) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message sale { required int64 key; "
        + "optional double amount; optional binary name (UTF8); required int32 day (DATE); }");
    long key = 0;
    for (int y = 0; y < YEARS; y++) {
      for (int m = 1; m <= MONTHS; m++) {
        Path dir = Files.createDirectories(table.resolve("year=" + (2022 + y)).resolve("month=0" + m));
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
            new org.apache.hadoop.fs.Path(dir.resolve("part.parquet").toUri()))
            .withConf(new Configuration()).withType(schema).withCompressionCodec(CompressionCodecName.SNAPPY)
            .withRowGroupSize(48 * 1024).withPageSize(8 * 1024).withDictionaryEncoding(false).build()) {
          for (int i = 0; i < ROWS_PER_FILE; i++, key++) {
            Group g = groups.newGroup();
            g.add("key", key);
            if (key % 7 != 0) {
              g.add("amount", (key * 37 % 10_000) / 100.0);
            }
            if (key % 11 != 0) {
              g.add("name", "n" + (key % 500));
            }
            g.add("day", (int) (19_000 + key / 100));
            w.write(g);
          }
        }
      }
    }
  }

  /** Row groups in the footers of the Parquet files under {@code table}. */
  static int rowGroups(Path table) throws IOException {
    List<Path> files = new ArrayList<>();
    try (var walk = Files.walk(table)) {
      walk.filter(p -> p.getFileName().toString().endsWith(".parquet")).forEach(files::add);
    }
    int n = 0;
    for (Path f : files) {
      try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(f.toUri()), new Configuration()))) {
        n += r.getRowGroups().size();
      }
    }
    return n;
  }
}
