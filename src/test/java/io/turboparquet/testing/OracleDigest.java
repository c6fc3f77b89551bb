package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Test oracle: the {@code digest} of a Parquet file computed with parquet-java's low-level column API
 * ({@link ParquetFileReader} + {@link ColumnReadStoreImpl} / {@link ColumnReader}), row group by row group.
 *
 * <p>Contract (the CLI {@code digest} command must match it byte for byte): one line per leaf column, schema order,
 * {@code path<TAB>PHYSICAL_TYPE<TAB>non_null_count<TAB>null_count<TAB>sha256hex}. For a column with max repetition
 * level 0 each row feeds {@code 0x00} if null, else {@code 0x01} then the value; for a column under a repeated field
 * each level entry feeds its repetition level byte, its definition level byte, then, when defined, the value.
 * Values: BOOLEAN 1 byte 0/1; INT32 4 bytes LE; INT64 8 bytes LE; INT96 the 12 stored bytes; FLOAT/DOUBLE the raw
 * stored bits LE; BYTE_ARRAY 4-byte LE length then bytes; FIXED_LEN_BYTE_ARRAY its bytes.
 *
 * <p>NaN: parquet-java's readers turn the stored bits into a float with {@code Float.intBitsToFloat} (no
 * canonicalisation) and this class takes them back with {@code floatToRawIntBits}, so NaN payloads survive on
 * HotSpot/x86-64 and aarch64. (parquet-java's <em>writers</em> do canonicalise: they use {@code floatToIntBits}.)
 */
public final class OracleDigest {

  private static final Configuration CONF = new Configuration();

  private OracleDigest() {
  }

  /** The digest lines of {@code file}, for the given dotted column paths (null = all leaves), in schema order. */
  public static List<String> digest(Path file, List<String> columnsOrNull) {
    List<String> out = new ArrayList<>();
    Map<ColumnDescriptor, DigestSink> sinks = new LinkedHashMap<>();
    scan(file, columnsOrNull, d -> sinks.computeIfAbsent(d, DigestSink::new));
    for (DigestSink s : sinks.values()) {
      out.add(s.line());
    }
    return out;
  }

  /** All level entries of each selected leaf column (null = all), in schema order. Keep it to small files. */
  public static List<OracleColumn> read(Path file, List<String> columnsOrNull) {
    Map<ColumnDescriptor, ReadSink> sinks = new LinkedHashMap<>();
    scan(file, columnsOrNull, d -> sinks.computeIfAbsent(d, ReadSink::new));
    List<OracleColumn> out = new ArrayList<>();
    for (ReadSink s : sinks.values()) {
      out.add(new OracleColumn(dotted(s.desc), physicalTypeName(s.desc),
          s.desc.getMaxRepetitionLevel(), s.desc.getMaxDefinitionLevel(), s.entries));
    }
    return out;
  }

  /** Single column convenience. */
  public static OracleColumn readColumn(Path file, String column) {
    return read(file, List.of(column)).get(0);
  }

  /** Dotted path of a leaf column. */
  public static String dotted(ColumnDescriptor d) {
    return String.join(".", d.getPath());
  }

  /** Leaf columns of the file's schema, in schema order (dotted paths). */
  public static List<String> leafPaths(Path file) {
    try (ParquetFileReader r = open(file)) {
      return r.getFileMetaData().getSchema().getColumns().stream().map(OracleDigest::dotted).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ParquetFileReader open(Path file) throws IOException {
    return open(file, false);
  }

  /**
   * Reads every page of every column with parquet-java's page CRC verification on; throws if a page carrying a
   * checksum does not match it. Returns the number of row groups read.
   */
  public static int verifyPageChecksums(Path file) {
    try (ParquetFileReader r = open(file, true)) {
      int groups = 0;
      while (r.readNextRowGroup() != null) { // pages are read (and verified) eagerly, chunk by chunk
        groups++;
      }
      return groups;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ParquetFileReader open(Path file, boolean verifyChecksums) throws IOException {
    // LocalInputFile, not HadoopInputFile: Hadoop's FileSystem needs commons-logging, absent from this class path.
    ParquetReadOptions options = ParquetReadOptions.builder(new HadoopParquetConfiguration(CONF))
        .usePageChecksumVerification(verifyChecksums).build();
    return ParquetFileReader.open(new LocalInputFile(file), options);
  }

  /** Footer (all metadata) of a file, read by parquet-java. */
  public static ParquetMetadata footer(Path file) {
    try (ParquetFileReader r = open(file)) {
      return r.getFooter();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  private interface ColumnSink {
    /** Called once per level entry; when defined, the sink must read the value from {@code reader}. */
    void entry(int rep, int def, ColumnReader reader);
  }

  private interface SinkFactory {
    ColumnSink sinkFor(ColumnDescriptor d);
  }

  private static void scan(Path file, List<String> columnsOrNull, SinkFactory sinks) {
    try (ParquetFileReader reader = open(file)) {
      MessageType schema = reader.getFileMetaData().getSchema();
      List<ColumnDescriptor> all = schema.getColumns();
      List<ColumnDescriptor> selected;
      if (columnsOrNull == null) {
        selected = all;
      } else {
        Set<String> wanted = new LinkedHashSet<>(columnsOrNull);
        selected = new ArrayList<>();
        for (ColumnDescriptor d : all) {
          if (wanted.remove(dotted(d))) {
            selected.add(d);
          }
        }
        if (!wanted.isEmpty()) {
          throw new IllegalArgumentException("unknown column(s) " + wanted + " in " + file + "; leaf columns: "
              + all.stream().map(OracleDigest::dotted).toList());
        }
      }
      // Create the sinks now, in schema order, so columns of a file with no row groups still get a line.
      List<ColumnSink> columnSinks = new ArrayList<>();
      for (ColumnDescriptor d : selected) {
        columnSinks.add(sinks.sinkFor(d));
      }
      MessageType requested = project(schema, selected);
      reader.setRequestedSchema(requested);
      String createdBy = reader.getFileMetaData().getCreatedBy();
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup, new NoopGroupConverter(requested), requested,
            createdBy);
        for (int c = 0; c < selected.size(); c++) {
          ColumnDescriptor d = selected.get(c);
          ColumnSink sink = columnSinks.get(c);
          ColumnReader cr = store.getColumnReader(d);
          long n = cr.getTotalValueCount();
          for (long i = 0; i < n; i++) {
            sink.entry(cr.getCurrentRepetitionLevel(), cr.getCurrentDefinitionLevel(), cr);
            cr.consume();
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("parquet-java could not read " + file + ": " + e, e);
    }
  }

  /** The schema restricted to the given leaves (keeps the groups on their paths). */
  private static MessageType project(MessageType schema, List<ColumnDescriptor> selected) {
    Set<String> keep = new LinkedHashSet<>();
    for (ColumnDescriptor d : selected) {
      String[] p = d.getPath();
      for (int i = 1; i <= p.length; i++) {
        keep.add(String.join("\u0000", java.util.Arrays.copyOf(p, i)));
      }
    }
    List<Type> fields = prune(schema, "", keep);
    return new MessageType(schema.getName(), fields);
  }

  private static List<Type> prune(GroupType g, String prefix, Set<String> keep) {
    List<Type> out = new ArrayList<>();
    for (Type t : g.getFields()) {
      String key = prefix.isEmpty() ? t.getName() : prefix + "\u0000" + t.getName();
      if (!keep.contains(key)) {
        continue;
      }
      if (t.isPrimitive()) {
        out.add(t);
      } else {
        out.add(t.asGroupType().withNewFields(prune(t.asGroupType(), key, keep)));
      }
    }
    return out;
  }

  /** Converter tree mirroring the schema, doing nothing: we read values from the ColumnReader directly. */
  static final class NoopGroupConverter extends GroupConverter {
    private final Converter[] children;

    NoopGroupConverter(GroupType type) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type t = type.getType(i);
        children[i] = t.isPrimitive() ? new NoopPrimitiveConverter() : new NoopGroupConverter(t.asGroupType());
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
    }

    @Override
    public void end() {
    }
  }

  static final class NoopPrimitiveConverter extends PrimitiveConverter {
  }

  // ---------------------------------------------------------------------------------------------------------

  private static final class DigestSink implements ColumnSink {
    private final ColumnDescriptor desc;
    private final MessageDigest sha;
    private final boolean repeated;
    private final int maxDef;
    private final ByteBuffer buf = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    private long nonNull;
    private long nulls;

    DigestSink(ColumnDescriptor desc) {
      this.desc = desc;
      this.repeated = desc.getMaxRepetitionLevel() > 0;
      this.maxDef = desc.getMaxDefinitionLevel();
      try {
        this.sha = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new AssertionError(e);
      }
    }

    @Override
    public void entry(int rep, int def, ColumnReader reader) {
      boolean defined = def == maxDef;
      if (defined) {
        nonNull++;
      } else {
        nulls++;
      }
      if (repeated) {
        sha.update((byte) rep);
        sha.update((byte) def);
      } else {
        sha.update(defined ? (byte) 1 : (byte) 0);
      }
      if (!defined) {
        return;
      }
      buf.clear();
      switch (desc.getPrimitiveType().getPrimitiveTypeName()) {
        case BOOLEAN -> sha.update(reader.getBoolean() ? (byte) 1 : (byte) 0);
        case INT32 -> {
          buf.putInt(reader.getInteger());
          sha.update(buf.array(), 0, 4);
        }
        case INT64 -> {
          buf.putLong(reader.getLong());
          sha.update(buf.array(), 0, 8);
        }
        case FLOAT -> {
          buf.putInt(Float.floatToRawIntBits(reader.getFloat()));
          sha.update(buf.array(), 0, 4);
        }
        case DOUBLE -> {
          buf.putLong(Double.doubleToRawLongBits(reader.getDouble()));
          sha.update(buf.array(), 0, 8);
        }
        case INT96, FIXED_LEN_BYTE_ARRAY -> sha.update(reader.getBinary().toByteBuffer());
        case BINARY -> {
          Binary b = reader.getBinary();
          buf.putInt(b.length());
          sha.update(buf.array(), 0, 4);
          sha.update(b.toByteBuffer());
        }
        default -> throw new IllegalStateException("unknown type " + desc);
      }
    }

    String line() {
      return dotted(desc) + "\t" + physicalTypeName(desc) + "\t" + nonNull + "\t" + nulls + "\t"
          + HexFormat.of().formatHex(sha.digest());
    }
  }

  /** Contract spelling of the physical type: parquet-java's BINARY is BYTE_ARRAY. */
  public static String physicalTypeName(ColumnDescriptor d) {
    String n = d.getPrimitiveType().getPrimitiveTypeName().name();
    return n.equals("BINARY") ? "BYTE_ARRAY" : n;
  }

  private static final class ReadSink implements ColumnSink {
    private final ColumnDescriptor desc;
    private final List<OracleColumn.Entry> entries = new ArrayList<>();

    ReadSink(ColumnDescriptor desc) {
      this.desc = desc;
    }

    @Override
    public void entry(int rep, int def, ColumnReader reader) {
      Object v = null;
      if (def == desc.getMaxDefinitionLevel()) {
        v = switch (desc.getPrimitiveType().getPrimitiveTypeName()) {
          case BOOLEAN -> reader.getBoolean();
          case INT32 -> reader.getInteger();
          case INT64 -> reader.getLong();
          case FLOAT -> reader.getFloat();
          case DOUBLE -> reader.getDouble();
          case INT96, FIXED_LEN_BYTE_ARRAY, BINARY -> reader.getBinary().getBytes();
        };
      }
      entries.add(new OracleColumn.Entry(rep, def, v));
    }
  }
}
