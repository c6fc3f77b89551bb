package io.turboparquet.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The {@code digest} of a Parquet file (DESIGN.md, "Command-line tool contract") computed with
 * parquet-java's low-level column API ({@link ParquetFileReader} + {@link ColumnReadStoreImpl}), row
 * group by row group: the oracle the fuzzer compares accepted reads with, and the tests' oracle.
 *
 * <p>NaN: parquet-java's readers turn the stored bits into a float with {@code Float.intBitsToFloat}
 * (no canonicalisation) and this class takes them back with {@code floatToRawIntBits}, so NaN payloads
 * survive on HotSpot/x86-64 and aarch64.
 */
public final class ParquetJavaDigest {
  private static final Configuration CONF = new Configuration();

  private ParquetJavaDigest() {}

  /** Receives a column's level entries; when defined, it must read the value from {@code reader}. */
  public interface ColumnSink {
    void entry(int rep, int def, ColumnReader reader);
  }

  public interface SinkFactory {
    ColumnSink sinkFor(ColumnDescriptor d);
  }

  /** The digest lines of {@code file}, for the given dotted column paths (null = all leaves), in schema order. */
  public static List<String> digest(Path file, List<String> columnsOrNull) {
    return digest(List.of(file), columnsOrNull);
  }

  /** The digest of {@code files} read one after another as one dataset: a leaf's values go on from file to file. */
  public static List<String> digest(List<Path> files, List<String> columnsOrNull) {
    Map<ColumnDescriptor, DigestSink> sinks = new LinkedHashMap<>(); // a leaf's descriptors are equal across files
    for (Path file : files) {
      scan(file, columnsOrNull, d -> sinks.computeIfAbsent(d, DigestSink::new));
    }
    List<String> out = new ArrayList<>();
    for (DigestSink s : sinks.values()) {
      out.add(s.line());
    }
    return out;
  }

  /** Dotted path of a leaf column. */
  public static String dotted(ColumnDescriptor d) {
    return String.join(".", d.getPath());
  }

  /** Contract spelling of the physical type: parquet-java's BINARY is BYTE_ARRAY. */
  public static String physicalTypeName(ColumnDescriptor d) {
    String n = d.getPrimitiveType().getPrimitiveTypeName().name();
    return n.equals("BINARY") ? "BYTE_ARRAY" : n;
  }

  public static ParquetFileReader open(Path file, boolean verifyChecksums) throws IOException {
    return open(file, verifyChecksums, null);
  }

  /** Opens {@code file}, decrypting it with {@code decryption} (null: none). */
  public static ParquetFileReader open(Path file, boolean verifyChecksums, FileDecryptionProperties decryption)
      throws IOException {
    // LocalInputFile, not HadoopInputFile: no Hadoop FileSystem (and its logging) needed.
    ParquetReadOptions options = ParquetReadOptions.builder(new HadoopParquetConfiguration(CONF))
        .usePageChecksumVerification(verifyChecksums).withDecryption(decryption)
        .withCodecFactory(new FreshLz4Codecs(new CodecFactory(CONF, 0))).build();
    return ParquetFileReader.open(new LocalInputFile(file), options);
  }

  /** The digest lines of the encrypted {@code file}, decrypted with {@code decryption}. */
  public static List<String> digest(Path file, List<String> columnsOrNull, FileDecryptionProperties decryption) {
    Map<ColumnDescriptor, DigestSink> sinks = new LinkedHashMap<>();
    scan(file, columnsOrNull, d -> sinks.computeIfAbsent(d, DigestSink::new), decryption);
    return sinks.values().stream().map(DigestSink::line).toList();
  }

  /** Feeds every level entry of each selected leaf (null = all), column by column, row group by row group. */
  public static void scan(Path file, List<String> columnsOrNull, SinkFactory sinks) {
    scan(file, columnsOrNull, sinks, null);
  }

  private static void scan(Path file, List<String> columnsOrNull, SinkFactory sinks,
      FileDecryptionProperties decryption) {
    try (ParquetFileReader reader = open(file, false, decryption)) {
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
              + all.stream().map(ParquetJavaDigest::dotted).toList());
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
          ColumnSink sink = columnSinks.get(c);
          ColumnReader cr = store.getColumnReader(selected.get(c));
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
        keep.add(String.join("\u0000", Arrays.copyOf(p, i)));
      }
    }
    return new MessageType(schema.getName(), prune(schema, "", keep));
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

  /** Converter tree mirroring the schema, doing nothing: values are read from the ColumnReader directly. */
  static final class NoopGroupConverter extends GroupConverter {
    private final Converter[] children;

    NoopGroupConverter(GroupType type) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type t = type.getType(i);
        children[i] = t.isPrimitive() ? new PrimitiveConverter() {} : new NoopGroupConverter(t.asGroupType());
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }

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
}
