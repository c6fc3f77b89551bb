package io.turboparquet.format.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.cli.Digester;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.ParquetJava118;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys through a KMS, as parquet-java's PropertiesDrivenCryptoFactory finds them: parquet-testing's
 * external_key_material_java.parquet.encrypted (written by parquet-java with external key material,
 * the file beside it, and its test KMS InMemoryKMS) reads as parquet-java 1.18.1 reads it with the
 * same factory, in every read mode; without the key material file, or with a wrong master key, it
 * is refused naming the file and no key bytes.
 */
public class KmsCryptoTest {
  /**
   * InMemoryKMS's master keys as parquet-java's key-management tests give them (key ids kf, kc1, kc2;
   * the ASCII bytes of "0123456789012345", "1234567890123450", "1234567890123451"), base64.
   */
  public static final String MASTER_KEYS = "kf: MDEyMzQ1Njc4OTAxMjM0NQ==, kc1: MTIzNDU2Nzg5MDEyMzQ1MA==,"
      + " kc2: MTIzNDU2Nzg5MDEyMzQ1MQ==";
  static final String FILE = "external_key_material_java.parquet.encrypted";

  private static ScanHarness harness;

  @BeforeAll
  static void start() {
    harness = new ScanHarness();
  }

  @AfterAll
  static void stop() {
    harness.close();
  }

  /** The Hadoop settings a user gives: parquet-java's factory and KMS client, the KMS's master keys. */
  static Configuration kms(String masterKeys) {
    Configuration conf = new Configuration();
    conf.set("parquet.crypto.factory.class", "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory");
    conf.set("parquet.encryption.kms.client.class", "org.apache.parquet.crypto.keytools.mocks.InMemoryKMS");
    conf.set("parquet.encryption.key.list", masterKeys);
    return conf;
  }

  private static Path file() {
    return EncryptedFilesCryptoTest.dir().resolve(FILE);
  }

  private static List<String> ours(Path file, Configuration conf, ScanOptions options) throws IOException {
    TrackingBufferSource buffers = new TrackingBufferSource();
    try {
      return Digester.digest(harness.context(options, buffers, new ScanMetrics())
          .withDecryption(DecryptionKeys.fromHadoop(conf)), ScanHarness.hadoopPath(file), null);
    } finally {
      assertEquals(0, buffers.outstanding(), "buffers leaked");
    }
  }

  @Test
  void readsAsParquetJava118ReadsItThroughItsKms() throws Exception {
    List<String> expected = ParquetJava118.digestKms(file(), MASTER_KEYS);
    assertEquals(2, expected.size(), expected.toString());
    for (ScanOptions options : EncryptedFilesCryptoTest.READ_MODES) {
      assertEquals(expected, ours(file(), kms(MASTER_KEYS), options), options.toString());
    }
  }

  @Test
  void withoutItsKeyMaterialFileTheFileIsRefused(@TempDir Path dir) throws IOException {
    Path alone = Files.copy(file(), dir.resolve(FILE));
    IOException e = assertThrows(IOException.class, () -> ours(alone, kms(MASTER_KEYS), ScanOptions.defaults()));
    assertTrue(e.getMessage().contains(FILE) && e.getMessage().contains("key material"), e.getMessage());
  }

  @Test
  void aWrongMasterKeyIsRefusedWithoutKeyBytes() {
    String wrong = MASTER_KEYS.replace("kc2: MTIzNDU2Nzg5MDEyMzQ1MQ==", "kc2: MTIzNDU2Nzg5MDEyMzQ1OQ==");
    Configuration conf = kms(wrong);
    // parquet-java caches KMS clients per access token for 10 minutes: a token of its own keeps this
    // client, with its wrong key, from serving the other tests
    conf.set("parquet.encryption.key.access.token", "wrong-master-key");
    IOException e = assertThrows(IOException.class, () -> ours(file(), conf, ScanOptions.defaults()));
    assertTrue(e.getMessage().contains(FILE) && e.getMessage().contains("column strings")
        && !e.getMessage().contains("MTIzNDU2Nzg5MDEyMzQ1")
        && !e.getMessage().contains("1234567890123459"), e.getMessage());
  }
}
