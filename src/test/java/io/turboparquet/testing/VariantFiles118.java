package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.apache.parquet.variant.Variant;
import org.apache.parquet.variant.VariantJsonParser;
import org.apache.parquet.variant.VariantValueWriter;

/**
 * Writes VARIANT files with parquet-java 1.18.1's own Variant code, in the child JVM of
 * {@link ParquetJava118}: values encoded from JSON by {@code VariantJsonParser}, shredded (or not)
 * by {@code VariantValueWriter} into the schema's {@code typed_value} columns. Records go through
 * parquet-java's {@code RecordConsumer}, so levels and pages are parquet-java's.
 */
final class VariantFiles118 {
  private VariantFiles118() {}

  /** {@link NestedVariantRows}' rows, shredded or not, in row groups of a few rows and small pages. */
  static void writeNested(Path file, boolean shredded) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType(NestedVariantRows.schema(shredded));
    GroupType sv = schema.getType("s").asGroupType().getType("v").asGroupType();
    GroupType element = schema.getType("vl").asGroupType().getType(0).asGroupType().getType(0).asGroupType();
    GroupType mv = schema.getType("m").asGroupType().getType(0).asGroupType().getType("value").asGroupType();
    try (ParquetWriter<Consumer<RecordConsumer>> w = new Builder(file, schema).withRowGroupSize(1024)
        .withPageSize(256).withDictionaryEncoding(false).build()) {
      for (NestedVariantRows.Row row : NestedVariantRows.ROWS) {
        w.write(rc -> {
          rc.startMessage();
          field(rc, "id", 0, () -> rc.addInteger(row.id()));
          if (row.s() != null) {
            field(rc, "s", 1, () -> {
              rc.startGroup();
              if (row.s().name() != null) {
                field(rc, "name", 0, () -> rc.addBinary(Binary.fromString(row.s().name())));
              }
              if (row.s().v() != null) {
                field(rc, "v", 1, () -> VariantValueWriter.write(rc, sv, parse(row.s().v())));
              }
              rc.endGroup();
            });
          }
          if (row.vl() != null) {
            field(rc, "vl", 2, () -> list(rc, row.vl(), element));
          }
          if (row.m() != null) {
            field(rc, "m", 3, () -> map(rc, row.m(), mv));
          }
          rc.endMessage();
        });
      }
    }
  }

  /**
   * Two rows of {@link NestedVariantRows}' unshredded schema, the second with a Variant value of
   * primitive type 31, which no specification version defines.
   */
  static void writeInvalidNested(Path file) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType(NestedVariantRows.schema(false));
    byte[] metadata = {0x01, 0x00, 0x00}; // version 1, empty dictionary
    try (ParquetWriter<Consumer<RecordConsumer>> w = new Builder(file, schema).build()) {
      for (int id = 0; id < 2; id++) {
        byte[] value = id == 0 ? new byte[] {0x0C, 0x05} : new byte[] {(byte) (31 << 2)}; // int8 5; type 31
        int row = id;
        w.write(rc -> {
          rc.startMessage();
          field(rc, "id", 0, () -> rc.addInteger(row));
          field(rc, "s", 1, () -> {
            rc.startGroup();
            field(rc, "v", 1, () -> {
              rc.startGroup();
              field(rc, "metadata", 0, () -> rc.addBinary(Binary.fromConstantByteArray(metadata)));
              field(rc, "value", 1, () -> rc.addBinary(Binary.fromConstantByteArray(value)));
              rc.endGroup();
            });
            rc.endGroup();
          });
          rc.endMessage();
        });
      }
    }
  }

  /**
   * Per case file of parquet-testing's {@code shredded_variant/}, a file of the same name in
   * {@code out} holding its {@code var} group's physical values verbatim (metadata, value,
   * typed_value as the case stores them) nested twice: as {@code s.v} and as both elements of a
   * two-element list {@code vl}, row by row, with a last row whose {@code s} and {@code vl} are null.
   */
  static void nestCases(Path out, List<Path> files) throws IOException {
    Configuration conf = new Configuration();
    for (Path f : files) {
      org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path(f.toUri());
      GroupType var;
      try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(in, conf))) {
        var = reader.getFileMetaData().getSchema().getType("var").asGroupType();
      }
      MessageType schema = new MessageType("m", Types.required(PrimitiveTypeName.INT32).named("id"),
          Types.optionalGroup().addField(renamed(var, "v")).named("s"),
          Types.optionalGroup().as(LogicalTypeAnnotation.listType()).addField(Types.repeatedGroup()
              .addField(renamed(var, "element")).named("list")).named("vl"));
      List<Group> rows = new ArrayList<>();
      try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), in).withConf(conf).build()) {
        for (Group g; (g = r.read()) != null; ) {
          rows.add(g);
        }
      }
      SimpleGroupFactory groups = new SimpleGroupFactory(schema);
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(
          out.resolve(f.getFileName()).toUri())).withConf(conf).withType(schema).build()) {
        for (int i = 0; i < rows.size(); i++) {
          Group g = groups.newGroup();
          g.add("id", i);
          Group v = rows.get(i).getFieldRepetitionCount("var") == 0 ? null : rows.get(i).getGroup("var", 0);
          Group s = g.addGroup("s");
          Group vl = g.addGroup("vl");
          if (v != null) {
            s.add("v", v);
          }
          for (int k = 0; k < 2; k++) {
            Group element = vl.addGroup("list");
            if (v != null) {
              element.add("element", v);
            }
          }
          w.write(g);
        }
        Group last = groups.newGroup();
        last.add("id", rows.size());
        w.write(last);
      }
    }
  }

  private static GroupType renamed(GroupType g, String name) {
    return Types.buildGroup(g.getRepetition()).as(g.getLogicalTypeAnnotation()).addFields(g.getFields()
        .toArray(new org.apache.parquet.schema.Type[0])).named(name);
  }

  private static void list(RecordConsumer rc, List<String> elements, GroupType element) {
    rc.startGroup();
    if (!elements.isEmpty()) {
      field(rc, "list", 0, () -> {
        for (String e : elements) {
          rc.startGroup();
          if (e != null) {
            field(rc, "element", 0, () -> VariantValueWriter.write(rc, element, parse(e)));
          }
          rc.endGroup();
        }
      });
    }
    rc.endGroup();
  }

  private static void map(RecordConsumer rc, Map<String, String> entries, GroupType value) {
    rc.startGroup();
    if (!entries.isEmpty()) {
      field(rc, "key_value", 0, () -> {
        for (Map.Entry<String, String> e : entries.entrySet()) {
          rc.startGroup();
          field(rc, "key", 0, () -> rc.addBinary(Binary.fromString(e.getKey())));
          if (e.getValue() != null) {
            field(rc, "value", 1, () -> VariantValueWriter.write(rc, value, parse(e.getValue())));
          }
          rc.endGroup();
        }
      });
    }
    rc.endGroup();
  }

  private static void field(RecordConsumer rc, String name, int index, Runnable body) {
    rc.startField(name, index);
    body.run();
    rc.endField(name, index);
  }

  private static Variant parse(String json) {
    try {
      return VariantJsonParser.parseJson(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A writer of records that write themselves. */
  private static final class Builder extends ParquetWriter.Builder<Consumer<RecordConsumer>, Builder> {
    private final MessageType schema;

    Builder(Path file, MessageType schema) {
      super(new org.apache.hadoop.fs.Path(file.toUri()));
      this.schema = schema;
      withConf(new Configuration());
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Consumer<RecordConsumer>> getWriteSupport(Configuration conf) {
      return new WriteSupport<>() {
        private RecordConsumer consumer;

        @Override
        public WriteContext init(Configuration configuration) {
          Map<String, String> extra = new HashMap<>();
          return new WriteContext(schema, extra);
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
          this.consumer = recordConsumer;
        }

        @Override
        public void write(Consumer<RecordConsumer> record) {
          record.accept(consumer);
        }
      };
    }
  }
}
