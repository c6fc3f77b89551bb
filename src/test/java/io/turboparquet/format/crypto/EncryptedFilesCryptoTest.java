package io.turboparquet.format.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.Digester;
import io.turboparquet.fuzz.ParquetJavaDigest;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.CorpusFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * parquet-testing's encrypted files (keys in the folder's KEYS.md) read equal to parquet-java's
 * reader given the same keys, and refuse clearly without them or with wrong ones.
 */
class EncryptedFilesCryptoTest {
  static final byte[] FOOTER_128 = ascii("0123456789012345");
  static final byte[] DOUBLE_128 = ascii("1234567890123450");
  static final byte[] FLOAT_128 = ascii("1234567890123451");
  static final byte[] AAD_PREFIX = ascii("tester");

  /**
   * Coalesced and async reads, chunk streams read ahead, and plain synchronous streams; with page
   * checksums verified (parquet-java writes them by default) where the writer stored them.
   */
  static final List<ScanOptions> READ_MODES = List.of(ScanOptions.defaults(),
      ScanOptions.builder().coalescedReads(false).verifyChecksums(true).build(),
      ScanOptions.builder().coalescedReads(false).asyncPageReads(false).build());

  private static ScanHarness harness;

  @BeforeAll
  static void start() {
    harness = new ScanHarness();
  }

  @AfterAll
  static void stop() {
    harness.close();
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static Path dir() {
    return CorpusFiles.dir().resolve("encrypted");
  }

  /** The files with explicit keys: all but the one whose keys come through a KMS. */
  static List<Path> files() throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path d : List.of(dir(), dir().resolve("aes256"))) {
      try (Stream<Path> s = Files.list(d)) {
        s.filter(p -> p.toString().endsWith(".parquet.encrypted") && !p.getFileName().toString().startsWith("external"))
            .sorted().forEach(out::add);
      }
    }
    return out;
  }

  static boolean aes256(Path file) {
    return file.getParent().getFileName().toString().equals("aes256");
  }

  /** KEYS.md's keys for {@code file}, and its AAD prefix where the file does not store it. */
  static FileDecryptionProperties keys(Path file) {
    FileDecryptionProperties.Builder b = FileDecryptionProperties.builder().withPlaintextFilesAllowed();
    if (aes256(file)) {
      // KEYS.md lists kc1-kc5 (key kcN ends in digit N + 1); the files have more columns, keyed the same way.
      String base = "1234567890123456789012345678901";
      b.withFooterKey(ascii("01234567890123456789012345678901")).withKeyRetriever(metadata -> {
        String id = new String(metadata, StandardCharsets.UTF_8);
        if (!id.startsWith("kc")) {
          throw new IllegalArgumentException("unknown key id " + id);
        }
        return ascii(base + ((Integer.parseInt(id.substring(2)) + 1) % 10));
      });
    } else {
      b.withFooterKey(FOOTER_128).withColumnKeys(columnKeys("double_field", DOUBLE_128, "float_field", FLOAT_128));
    }
    if (file.getFileName().toString().contains("disable_aad_storage")) {
      b.withAADPrefix(AAD_PREFIX);
    }
    return b.build();
  }

  /** Column name, key, column name, key, ... as parquet-java's builder takes them. */
  static Map<ColumnPath, ColumnDecryptionProperties> columnKeys(Object... nameKey) {
    Map<ColumnPath, ColumnDecryptionProperties> out = new HashMap<>();
    for (int i = 0; i < nameKey.length; i += 2) {
      ColumnPath path = ColumnPath.get((String) nameKey[i]);
      out.put(path, ColumnDecryptionProperties.builder(path).withKey((byte[]) nameKey[i + 1]).build());
    }
    return out;
  }

  static List<String> ours(Path file, FileDecryptionProperties keys, List<String> columns, ScanOptions options)
      throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    try {
      return Digester.digest(harness.context(options, buffers, new ScanMetrics()).withDecryption(DecryptionKeys.of(keys)),
          ScanHarness.hadoopPath(file), columns);
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked reading " + file);
    }
  }

  @Test
  void everyFileReadsAsParquetJavaReadsIt() throws IOException {
    List<Path> files = files();
    assertTrue(files.size() >= 12, "files: " + files);
    List<String> failures = new ArrayList<>();
    for (Path file : files) {
      List<String> expected;
      try {
        expected = ParquetJavaDigest.digest(file, null, keys(file));
      } catch (RuntimeException e) {
        failures.add(file + ": " + e);
        continue;
      }
      assertFalse(expected.isEmpty(), file.toString());
      for (ScanOptions options : READ_MODES) {
        try {
          assertEquals(expected, ours(file, keys(file), null, options), file + " " + options);
        } catch (IOException | RuntimeException | AssertionError e) {
          failures.add(file + ": " + e);
        }
      }
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  /** The message of what reading {@code file} with {@code keys} throws: an IOException naming the file. */
  static String refusal(Path file, FileDecryptionProperties keys, List<String> columns) {
    IOException e = assertThrows(IOException.class, () -> ours(file, keys, columns, ScanOptions.defaults()),
        file.toString());
    String m = e.getMessage();
    assertTrue(m.contains(file.getFileName().toString()), "names the file: " + m);
    for (byte[] key : List.of(FOOTER_128, DOUBLE_128, FLOAT_128, ascii("0123456789012345X"),
        ascii("1234567890123459"))) { // the keys of the tests, right or wrong: none is in any message
      String text = new String(key, StandardCharsets.US_ASCII);
      assertFalse(m.contains(text) || m.contains(HexFormat.of().formatHex(key))
          || m.contains(Base64.getEncoder().encodeToString(key)), "no key bytes: " + m);
    }
    return m;
  }

  static FileDecryptionProperties.Builder footerOnly(byte[] footerKey) {
    return FileDecryptionProperties.builder().withFooterKey(footerKey).withPlaintextFilesAllowed();
  }

  @Test
  void withoutKeysEncryptedFootersAreRefusedNamingTheSetting() throws IOException {
    for (Path file : files()) {
      if (!file.getFileName().toString().contains("plaintext_footer")) {
        String m = refusal(file, null, null);
        assertTrue(m.contains("encrypted footer") && m.contains("parquet.crypto.factory.class"), m);
      }
    }
  }

  @Test
  void withoutKeysAPlaintextFootersPlainColumnsReadAndItsEncryptedOnesAreRefused() throws IOException {
    Path file = dir().resolve("encrypt_columns_plaintext_footer.parquet.encrypted");
    List<String> plain = List.of("boolean_field", "int32_field", "ba_field");
    assertEquals(ParquetJavaDigest.digest(file, plain, keys(file)), ours(file, null, plain, ScanOptions.defaults()));
    String m = refusal(file, null, List.of("int32_field", "double_field"));
    assertTrue(m.contains("column double_field") && m.contains("parquet.crypto.factory.class"), m);
  }

  @Test
  void aWrongFooterKeyIsRefused() throws IOException {
    for (Path file : files()) {
      if (!aes256(file)) {
        FileDecryptionProperties.Builder b = footerOnly(ascii("0123456789012349"));
        if (file.getFileName().toString().contains("aad")) {
          b.withAADPrefix(AAD_PREFIX);
        }
        String m = refusal(file, b.build(), null);
        assertTrue(m.contains("footer") && m.contains("wrong"), m);
      }
    }
  }

  @Test
  void aWrongOrMissingColumnKeyIsRefusedNamingTheColumn() throws IOException {
    Path file = dir().resolve("encrypt_columns_and_footer.parquet.encrypted");
    String wrong = refusal(file, footerOnly(FOOTER_128).withColumnKeys(columnKeys("double_field",
        ascii("1234567890123459"), "float_field", FLOAT_128)).build(), null);
    assertTrue(wrong.contains("column double_field") && wrong.contains("wrong key"), wrong);
    String missing = refusal(file, footerOnly(FOOTER_128).withColumnKeys(columnKeys("double_field", DOUBLE_128))
        .build(), null);
    assertTrue(missing.contains("column float_field") && missing.contains("no key"), missing);
    // The columns it has keys for still read.
    List<String> readable = List.of("double_field", "int32_field");
    assertEquals(ParquetJavaDigest.digest(file, readable, keys(file)), ours(file, footerOnly(FOOTER_128)
        .withColumnKeys(columnKeys("double_field", DOUBLE_128)).build(), readable, ScanOptions.defaults()));
  }

  @Test
  void aMissingOrWrongAadPrefixIsRefused() throws IOException {
    Path stored = dir().resolve("encrypt_columns_and_footer_aad.parquet.encrypted");
    Path notStored = dir().resolve("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
    FileDecryptionProperties noPrefix = FileDecryptionProperties.builder().withFooterKey(FOOTER_128)
        .withColumnKeys(columnKeys("double_field", DOUBLE_128, "float_field", FLOAT_128)).build();
    assertTrue(refusal(notStored, noPrefix, null).contains("AAD prefix"));
    FileDecryptionProperties otherPrefix = FileDecryptionProperties.builder().withFooterKey(FOOTER_128)
        .withColumnKeys(columnKeys("double_field", DOUBLE_128, "float_field", FLOAT_128))
        .withAADPrefix(ascii("tester2")).build();
    assertTrue(refusal(stored, otherPrefix, null).contains("AAD prefix"));
    assertTrue(refusal(notStored, otherPrefix, null).contains("wrong"));
  }

  /**
   * Every byte of the GCM files' encrypted chunks, changed, makes the read fail naming the column,
   * and a change in the footer either fails or reads the same values: never other values. (Bytes of
   * unencrypted chunks have no more protection than in any Parquet file; files with AES-CTR pages
   * are left out: CTR does not authenticate pages.)
   */
  @Test
  void aChangedByteNeverReadsAsOtherValues() throws IOException {
    List<String> failures = new ArrayList<>();
    for (String name : List.of("encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted")) {
      Path file = dir().resolve(name);
      byte[] bytes = Files.readAllBytes(file);
      List<String> expected = ours(file, keys(file), null, ScanOptions.defaults());
      io.turboparquet.format.FileMetadata meta;
      try (org.apache.hadoop.fs.FSDataInputStream in = harness.fileSystem().open(ScanHarness.hadoopPath(file))) {
        meta = io.turboparquet.format.FooterReader.read(in, file.toString(), bytes.length,
            io.turboparquet.format.FooterOptions.DEFAULT, keys(file));
      }
      int footerStart = bytes.length - 8 - (int) ChunkDecryptor.littleEndian(bytes, bytes.length - 8);
      Path copy = Files.createTempFile("tampered", ".parquet.encrypted");
      try {
        for (int at = 0; at < bytes.length; at += 3) {
          String column = null;
          for (io.turboparquet.format.RowGroupMeta rg : meta.rowGroups()) {
            for (io.turboparquet.format.ColumnChunkMeta c : rg.columns()) {
              if (c.decryptor() != null && at >= c.startOffset() && at < c.startOffset() + c.totalCompressedSize()) {
                column = c.column().dottedPath();
              }
            }
          }
          if (column == null && at < footerStart) {
            continue;
          }
          byte[] changed = bytes.clone();
          changed[at] ^= 0x10;
          Files.write(copy, changed);
          try {
            List<String> got = ours(copy, keys(file), null, ScanOptions.defaults());
            if (column != null || !got.equals(expected)) {
              failures.add(name + " byte " + at + (column == null ? ": other values" : ": read, in column " + column));
            }
          } catch (IOException e) {
            if (!e.getMessage().contains(copy.getFileName().toString())
                || column != null && !e.getMessage().contains("column " + column)) {
              failures.add(name + " byte " + at + ": " + e.getMessage());
            }
          } catch (RuntimeException e) {
            failures.add(name + " byte " + at + ": " + e);
          }
        }
      } finally {
        Files.delete(copy);
      }
    }
    assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
  }

  /** The double_field values a scan of {@code file} with {@code filter} returns, and its metrics. */
  record Doubles(List<Double> values, ScanMetrics metrics) {}

  static Doubles doubles(Path file, String filter) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    ScanMetrics metrics = new ScanMetrics();
    io.turboparquet.scan.ScanContext context = harness.context(ScanOptions.defaults(), buffers, metrics)
        .withDecryption(DecryptionKeys.of(keys(file)));
    org.apache.hadoop.fs.Path path = ScanHarness.hadoopPath(file);
    List<Double> out = new ArrayList<>();
    try (io.turboparquet.scan.ParquetFileScanner s = io.turboparquet.scan.ParquetFileScanner.open(context, path,
        io.turboparquet.scan.ParquetFileScanner.readMetadata(context, path), List.of("double_field"),
        filter == null ? null : io.turboparquet.filter.Predicate.parse(filter))) {
      for (io.turboparquet.scan.Batch b; (b = s.next()) != null; ) {
        io.turboparquet.scan.ColumnBatch c = b.columns().get(0);
        for (int r = 0; r < b.rows(); r++) {
          if (c.validity() == null || (c.validity().getByte(r >>> 3) >> (r & 7) & 1) != 0) {
            out.add(Double.longBitsToDouble(c.values().values().getLongLE(8 * r)));
          }
        }
      }
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
    return new Doubles(out, metrics);
  }

  /**
   * Filtered reads of the file with encrypted bloom filters and page indexes: a value inside the
   * column's range that no row holds is ruled out by the (decrypted) bloom filter, every row group;
   * each value a row holds comes back as often as it is stored.
   */
  @Test
  void encryptedBloomFiltersAndPageIndexesPrune() throws IOException {
    Path file = dir().resolve("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    Doubles all = doubles(file, null);
    List<Double> sorted = all.values().stream().distinct().sorted().toList();
    assertTrue(sorted.size() > 10, "values: " + sorted);
    for (int i = 0; i < sorted.size() - 1; i += Math.max(1, sorted.size() / 7)) {
      double present = sorted.get(i);
      Doubles got = doubles(file, "double_field = " + present);
      assertEquals(all.values().stream().filter(v -> v == present).count(),
          got.values().stream().filter(v -> v == present).count(), "rows holding " + present);
      assertEquals(0, got.metrics().pageIndexFallbacks(), "page indexes read");
      double absent = (present + sorted.get(i + 1)) / 2;
      Doubles none = doubles(file, "double_field = " + absent);
      assertEquals(List.of(), none.values(), "rows holding " + absent);
      assertEquals(all.metrics().rowGroups(), none.metrics().rowGroupsPrunedByBloomFilter(),
          "row groups the bloom filter rules out for " + absent);
    }
  }
}
