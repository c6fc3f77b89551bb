package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.io.TrackingBufferSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

/**
 * parquet-testing's {@code large_string_map.brotli.parquet} (MAP&lt;STRING, INT32&gt;, 2 rows, each
 * one key of 2^30 bytes, pages of about 1 GiB, over 2 GiB of strings in one column chunk) reads,
 * one record per batch, and equals parquet-java entry by entry: levels, and for each value its
 * length and SHA-256 (never two copies of a 1 GiB value at once). parquet-java reads the file with
 * a codec factory whose BROTLI decompressor is org.brotli:dec, since parquet-java's own BROTLI codec
 * (jbrotli) is not on the class path. Needs about 3 GiB of heap and 3 GiB of direct memory: it runs
 * in surefire's {@code large-tests} execution, a JVM of its own.
 */
class LargeStringMapTest {
  /** One level entry: levels, and a value's length and SHA-256 (strings) or the value (ints). */
  record Entry(int rep, int def, long length, String value) {}

  @Test
  void readsLikeParquetJava() throws IOException, URISyntaxException {
    java.nio.file.Path file = Paths.get(getClass().getResource("/parquet-testing/large_string_map.brotli.parquet").toURI());
    long t0 = System.nanoTime();
    List<List<Entry>> expected = oracle(file);
    long t1 = System.nanoTime();
    assertEquals(2, expected.size());
    Path path = ScanHarness.hadoopPath(file);
    List<List<Entry>> actual = new ArrayList<>();
    int batches = 0;
    long largest = 0;
    try (ScanHarness harness = new ScanHarness()) {
      FileMetadata meta;
      try (FSDataInputStream in = harness.fileSystem().open(path)) {
        meta = FooterReader.read(in, file.toString(), Files.size(file));
      }
      List<ColumnDescriptor> columns = meta.schema().columns();
      for (int c = 0; c < columns.size(); c++) {
        actual.add(new ArrayList<>());
      }
      TrackingBufferSource buffers = new TrackingBufferSource();
      ScanOptions options = ScanOptions.defaults();
      for (int g = 0; g < meta.rowGroups().size(); g++) {
        try (RowGroupScanner scanner = new RowGroupScanner(harness.context(options, buffers, new ScanMetrics()), meta,
            path, g, columns)) {
          Batch batch;
          while ((batch = scanner.next()) != null) {
            batches++;
            for (int c = 0; c < columns.size(); c++) {
              ColumnBatch cb = batch.columns().get(c);
              largest = Math.max(largest, cb.values().byteSize());
              collect(cb, actual.get(c));
            }
          }
        }
      }
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
    long t2 = System.nanoTime();
    assertEquals(expected, actual);
    assertEquals(2, expected.get(0).size(), "one key per row");
    assertEquals(1L << 30, expected.get(0).get(0).length());
    assertEquals(2, batches, "one record per batch: each is over the default batchBytes");
    assertTrue(largest >= 1L << 30, "a batch holds a whole 1 GiB value: " + largest);
    System.out.printf("large_string_map: parquet-java %.1f s, turbo-parquet %.1f s, peak RSS %s%n", (t1 - t0) / 1e9,
        (t2 - t1) / 1e9, peakRss());
  }

  private static void collect(ColumnBatch cb, List<Entry> out) {
    int maxDef = cb.column().maxDefinitionLevel();
    boolean strings = cb.values().isVariableWidth();
    int value = 0;
    for (int j = 0; j < cb.entryCount(); j++) {
      int rep = cb.repetitionLevels().getByte(j);
      int def = cb.definitionLevels().getByte(j);
      if (def != maxDef) {
        out.add(new Entry(rep, def, -1, null));
      } else if (strings) {
        int start = cb.values().offsets().getIntLE(value << 2);
        int end = cb.values().offsets().getIntLE((value + 1) << 2);
        ByteBuf data = cb.values().values();
        out.add(new Entry(rep, def, end - start, sha256(data.nioBuffer(start, end - start))));
        value++;
      } else {
        out.add(new Entry(rep, def, 4, Integer.toString(cb.values().values().getIntLE(4 * value++))));
      }
    }
  }

  /** Every leaf's entries as parquet-java's column reader gives them, in schema order. */
  private static List<List<Entry>> oracle(java.nio.file.Path file) throws IOException {
    ParquetReadOptions options = ParquetReadOptions.builder(new HadoopParquetConfiguration(new Configuration()))
        .withCodecFactory(new BrotliCodecs()).build();
    List<List<Entry>> out = new ArrayList<>();
    try (ParquetFileReader reader = new ParquetFileReader(new LocalInputFile(file), options)) {
      MessageType schema = reader.getFileMetaData().getSchema();
      for (int c = 0; c < schema.getColumns().size(); c++) {
        out.add(new ArrayList<>());
      }
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup, new Noop(schema), schema,
            reader.getFileMetaData().getCreatedBy());
        for (int c = 0; c < schema.getColumns().size(); c++) {
          org.apache.parquet.column.ColumnDescriptor d = schema.getColumns().get(c);
          ColumnReader cr = store.getColumnReader(d);
          for (long i = 0, n = cr.getTotalValueCount(); i < n; i++) {
            int rep = cr.getCurrentRepetitionLevel();
            int def = cr.getCurrentDefinitionLevel();
            if (def != d.getMaxDefinitionLevel()) {
              out.get(c).add(new Entry(rep, def, -1, null));
            } else if (d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY) {
              Binary b = cr.getBinary();
              out.get(c).add(new Entry(rep, def, b.length(), sha256(b.toByteBuffer())));
            } else {
              out.get(c).add(new Entry(rep, def, 4, Integer.toString(cr.getInteger())));
            }
            cr.consume();
          }
        }
      }
    }
    return out;
  }

  private static String sha256(ByteBuffer bytes) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(bytes);
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static String peakRss() {
    try {
      return Files.readAllLines(Paths.get("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM"))
          .map(l -> l.substring(6).trim()).findFirst().orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Decompression for parquet-java: BROTLI through org.brotli:dec; pages here are all BROTLI. */
  static final class BrotliCodecs implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
      throw new UnsupportedOperationException("reading only");
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
      if (codec != CompressionCodecName.BROTLI && codec != CompressionCodecName.UNCOMPRESSED) {
        throw new UnsupportedOperationException(codec + ": this test's files are BROTLI");
      }
      return new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
          if (codec == CompressionCodecName.UNCOMPRESSED) {
            return bytes;
          }
          byte[] out = new byte[uncompressedSize];
          try (InputStream in = new org.brotli.dec.BrotliInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            int n = in.readNBytes(out, 0, uncompressedSize);
            if (n != uncompressedSize || in.read() != -1) {
              throw new IOException("BROTLI page of " + n + "+ bytes where " + uncompressedSize + " were promised");
            }
          }
          return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
            throws IOException {
          byte[] in = new byte[compressedSize];
          input.get(in);
          output.put(decompress(BytesInput.from(in), uncompressedSize).toByteBuffer());
        }

        @Override
        public void release() {
        }
      };
    }

    @Override
    public void release() {
    }
  }

  /** A converter tree that does nothing: values come from the column readers. */
  static final class Noop extends GroupConverter {
    private final Converter[] children;

    Noop(GroupType type) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        children[i] = type.getType(i).isPrimitive() ? new PrimitiveConverter() { } : new Noop(type.getType(i).asGroupType());
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
}
