package io.turboparquet.testing;

import io.turboparquet.fuzz.ParquetJavaDigest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Test oracle: the {@code digest} of a Parquet file computed with parquet-java's low-level column API, as
 * {@link ParquetJavaDigest} (the fuzzer's oracle) computes it, plus the level entries of small files and
 * parquet-java's footer and checksum checks.
 *
 * <p>Contract (the CLI {@code digest} command must match it byte for byte): one line per leaf column, schema order,
 * {@code path<TAB>PHYSICAL_TYPE<TAB>non_null_count<TAB>null_count<TAB>sha256hex}; see {@link ParquetJavaDigest}.
 */
public final class OracleDigest {

  private OracleDigest() {
  }

  /** The digest lines of {@code file}, for the given dotted column paths (null = all leaves), in schema order. */
  public static List<String> digest(Path file, List<String> columnsOrNull) {
    return ParquetJavaDigest.digest(file, columnsOrNull);
  }

  /** The digest of {@code files} read in order as one dataset, as the CLI's {@code digest} of a directory or glob. */
  public static List<String> digest(List<Path> files, List<String> columnsOrNull) {
    return ParquetJavaDigest.digest(files, columnsOrNull);
  }

  /** All level entries of each selected leaf column (null = all), in schema order. Keep it to small files. */
  public static List<OracleColumn> read(Path file, List<String> columnsOrNull) {
    Map<ColumnDescriptor, ReadSink> sinks = new LinkedHashMap<>();
    ParquetJavaDigest.scan(file, columnsOrNull, d -> sinks.computeIfAbsent(d, ReadSink::new));
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
    return ParquetJavaDigest.dotted(d);
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
    return ParquetJavaDigest.open(file, false);
  }

  /**
   * Reads every page of every column with parquet-java's page CRC verification on; throws if a page carrying a
   * checksum does not match it. Returns the number of row groups read.
   */
  public static int verifyPageChecksums(Path file) {
    try (ParquetFileReader r = ParquetJavaDigest.open(file, true)) {
      int groups = 0;
      while (r.readNextRowGroup() != null) { // pages are read (and verified) eagerly, chunk by chunk
        groups++;
      }
      return groups;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Footer (all metadata) of a file, read by parquet-java. */
  public static ParquetMetadata footer(Path file) {
    try (ParquetFileReader r = open(file)) {
      return r.getFooter();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Contract spelling of the physical type: parquet-java's BINARY is BYTE_ARRAY. */
  public static String physicalTypeName(ColumnDescriptor d) {
    return ParquetJavaDigest.physicalTypeName(d);
  }

  private static final class ReadSink implements ParquetJavaDigest.ColumnSink {
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
