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

  /** Coalesced and async reads, chunk streams read ahead, and plain synchronous streams. */
  static final List<ScanOptions> READ_MODES = List.of(ScanOptions.defaults(),
      ScanOptions.builder().coalescedReads(false).build(),
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
}
