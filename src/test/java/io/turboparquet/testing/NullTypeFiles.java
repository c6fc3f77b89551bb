package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.NullType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Files with columns of the Parquet NULL logical type (LogicalType member UNKNOWN, "NullType"), which
 * parquet-java's writer cannot annotate: it writes the columns plain, then the footer's SchemaElements
 * get the annotation through parquet-format's Thrift structs. And readable copies of files whose
 * LogicalType is a member no reader knows, for parquet-java 1.15, which fails on those.
 */
public final class NullTypeFiles {
  /** Columns: id (required INT32), nothing (optional INT32, NULL type), s (STRING), nothing_bin (BYTE_ARRAY, NULL). */
  public static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message nulltype {"
      + " required int32 id; optional int32 nothing; optional binary s (STRING); optional binary nothing_bin; }");

  private NullTypeFiles() {
  }

  /** NULL-type columns whose every value is null, as writers of the type write them; several row groups. */
  public static Path allNull(Path dir, int rows) {
    return write(dir.resolve("null_type.parquet"), rows, false);
  }

  /**
   * NULL-type columns whose pages nevertheless hold values (every third row null): the annotation
   * says one thing and the pages another.
   */
  public static Path withValues(Path dir, int rows) {
    return write(dir.resolve("null_type_with_values.parquet"), rows, true);
  }

  /** A copy of {@code file} without the LogicalType annotations whose member parquet-java cannot read. */
  public static Path withoutUnknownLogicalTypes(Path file, Path copy) {
    try {
      byte[] b = FooterRewrite.editFooter(Files.readAllBytes(file), f -> {
        for (SchemaElement e : f.getSchema()) {
          if (e.isSetLogicalType() && e.getLogicalType().getSetField() == null) {
            e.unsetLogicalType();
          }
        }
      });
      Files.createDirectories(copy.toAbsolutePath().getParent());
      return Files.write(copy, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(Path file, int rows, boolean values) {
    try {
      Files.createDirectories(file.getParent());
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
          .withConf(new Configuration())
          .withType(SCHEMA)
          .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
          .withCompressionCodec(CompressionCodecName.SNAPPY)
          .withRowGroupSize(2048) // several row groups: checked every 100 rows or more
          .withPageRowCountLimit(Math.max(1, rows / 8))
          .build()) {
        for (int row = 0; row < rows; row++) {
          Group g = new SimpleGroup(SCHEMA);
          g.add("id", row);
          g.add("s", "s" + row % 13);
          if (values && row % 3 != 0) {
            g.add("nothing", row * 7);
            g.add("nothing_bin", "v" + row);
          }
          w.write(g);
        }
      }
      byte[] b = FooterRewrite.editFooter(Files.readAllBytes(file), f -> {
        for (SchemaElement e : f.getSchema()) {
          if (e.getName().startsWith("nothing")) {
            e.setLogicalType(LogicalType.UNKNOWN(new NullType()));
          }
        }
      });
      return Files.write(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
