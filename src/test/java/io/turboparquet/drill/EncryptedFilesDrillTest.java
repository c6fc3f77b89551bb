package io.turboparquet.drill;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.turboparquet.format.crypto.ExplicitKeysFactory;
import io.turboparquet.testing.CorpusFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.store.dfs.FileSystemConfig;
import org.apache.drill.exec.store.dfs.WorkspaceConfig;
import org.apache.drill.test.ClusterTest;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Encrypted files through Drill: the keys come from the crypto factory in the file-system plugin's
 * {@code config} block, configured once for both readers. Turbo's rows equal those of Drill's
 * built-in reader (parquet-java 1.15 with the same configuration); without keys the query fails
 * naming the file and what is missing.
 */
public class EncryptedFilesDrillTest extends ClusterTest {
  private static final List<String> FILES = List.of("encrypt_columns_and_footer.parquet.encrypted",
      "encrypt_columns_and_footer_ctr.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted",
      "uniform_encryption.parquet.encrypted", "encrypt_columns_and_footer_bloom_filter.parquet.encrypted");

  @BeforeClass
  public static void setup() throws Exception {
    startCluster(EmbeddedDrill.builder(dirTestWatcher).maxParallelization(1));
    Path dir = dirTestWatcher.getRootDir().toPath().toAbsolutePath().resolve("encrypted");
    Files.createDirectories(dir);
    for (String name : FILES) { // ".parquet", so that Drill's format matching takes them as Parquet
      Files.copy(CorpusFiles.dir().resolve("encrypted").resolve(name), dir.resolve(parquet(name)));
    }
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("parquet.crypto.factory.class", ExplicitKeysFactory.class.getName());
    keys.put(ExplicitKeysFactory.FOOTER_KEY, b64("0123456789012345"));
    keys.put(ExplicitKeysFactory.COLUMN_KEYS, "double_field:" + b64("1234567890123450") + ",float_field:"
        + b64("1234567890123451"));
    define("keyed", dir, keys);
    define("keyless", dir, Map.of());
    // Keys through a KMS: parquet-java's factory finds the file's key material in the file beside it
    // (renamed with it), read through the plugin's file system, and unwraps it with parquet-java's test KMS.
    Path kmsDir = Files.createDirectories(dir.resolveSibling("kms"));
    Path source = CorpusFiles.dir().resolve("encrypted");
    Files.copy(source.resolve(KMS_FILE), kmsDir.resolve(parquet(KMS_FILE)));
    Files.copy(source.resolve("_KEY_MATERIAL_FOR_" + KMS_FILE + ".json"),
        kmsDir.resolve("_KEY_MATERIAL_FOR_" + parquet(KMS_FILE) + ".json"));
    Map<String, String> kms = new LinkedHashMap<>();
    kms.put("parquet.crypto.factory.class", "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory");
    kms.put("parquet.encryption.kms.client.class", "org.apache.parquet.crypto.keytools.mocks.InMemoryKMS");
    kms.put("parquet.encryption.key.list", io.turboparquet.format.crypto.KmsCryptoTest.MASTER_KEYS);
    define("kms", kmsDir, kms);
  }

  /** Written by parquet-java with external key material and its test KMS (InMemoryKMS). */
  private static final String KMS_FILE = "external_key_material_java.parquet.encrypted";

  private static String parquet(String name) {
    return name.replace(".parquet.encrypted", ".parquet");
  }

  private static String b64(String ascii) {
    return Base64.getEncoder().encodeToString(ascii.getBytes(StandardCharsets.US_ASCII));
  }

  private static void define(String name, Path dir, Map<String, String> config) {
    FileSystemConfig plugin = new FileSystemConfig("file:///", config,
        Map.of("enc", new WorkspaceConfig(dir.toString(), false, null, false)),
        Map.of("parquet", new TurboParquetFormatConfig()), null);
    plugin.setEnabled(true);
    cluster.defineStoragePlugin(name, plugin);
  }

  /**
   * Drill's built-in reader cannot plan encrypted files (its footer reads take no keys), so the rows
   * are held to parquet-java's reader given the same keys, column by column.
   */
  @Test
  public void rowsEqualParquetJavasWithTheSameKeys() throws Exception {
    List<String> columns = List.of("int32_field", "float_field", "double_field"); // in each file
    for (String name : FILES) {
      List<List<String>> expected = new java.util.ArrayList<>();
      org.apache.parquet.crypto.FileDecryptionProperties keys = new ExplicitKeysFactory().getFileDecryptionProperties(
          cluster.drillbit().getContext().getStorage().getPlugin("keyed") instanceof
              org.apache.drill.exec.store.dfs.FileSystemPlugin p ? p.getFsConf() : null, null);
      try (org.apache.parquet.hadoop.ParquetReader<org.apache.parquet.example.data.Group> r =
          org.apache.parquet.hadoop.ParquetReader.builder(new org.apache.parquet.hadoop.example.GroupReadSupport(),
              new org.apache.hadoop.fs.Path(CorpusFiles.dir().resolve("encrypted").resolve(name).toUri()))
              .withDecryption(keys).build()) {
        for (org.apache.parquet.example.data.Group g; (g = r.read()) != null; ) {
          List<String> row = new java.util.ArrayList<>();
          for (String c : columns) {
            row.add(g.getFieldRepetitionCount(c) == 0 ? "null" : switch (c) {
              case "int32_field" -> String.valueOf(g.getInteger(c, 0));
              case "float_field" -> String.valueOf(g.getFloat(c, 0));
              default -> String.valueOf(g.getDouble(c, 0));
            });
          }
          expected.add(row);
        }
      }
      Result turbo = Result.of(client, "select " + String.join(", ", columns) + " from keyed.enc.`" + parquet(name)
          + "`");
      assertTrue(name + ": " + expected.size(), expected.size() >= 50);
      assertEquals(name, expected, turbo.cells());
    }
  }

  /** The KMS plugin's keys for the file, as its crypto factory gives them to parquet-java's reader (1.15). */
  @Test
  public void keysThroughAKmsAndExternalKeyMaterialReadAsParquetJavaReads() throws Exception {
    org.apache.hadoop.conf.Configuration conf = ((org.apache.drill.exec.store.dfs.FileSystemPlugin) cluster.drillbit()
        .getContext().getStorage().getPlugin("kms")).getFsConf();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dirTestWatcher.getRootDir().toPath()
        .toAbsolutePath().resolve("kms").resolve(parquet(KMS_FILE)).toUri());
    org.apache.parquet.crypto.FileDecryptionProperties keys = org.apache.parquet.crypto.DecryptionPropertiesFactory
        .loadFactory(conf).getFileDecryptionProperties(conf, file);
    List<List<String>> expected = new java.util.ArrayList<>();
    try (org.apache.parquet.hadoop.ParquetReader<org.apache.parquet.example.data.Group> r =
        org.apache.parquet.hadoop.ParquetReader.builder(new org.apache.parquet.hadoop.example.GroupReadSupport(), file)
            .withConf(conf).withDecryption(keys).build()) {
      for (org.apache.parquet.example.data.Group g; (g = r.read()) != null; ) {
        expected.add(List.of(String.valueOf(g.getInteger("integers", 0)), g.getString("strings", 0)));
      }
    }
    Result turbo = Result.of(client, "select integers, strings from kms.enc.`" + parquet(KMS_FILE) + "`");
    assertEquals(100, expected.size());
    assertEquals(expected, turbo.cells());
  }

  @Test
  public void filtersOnEncryptedColumnsReturnTheMatchingRows() throws Exception {
    String file = parquet("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    Result all = Result.of(client, "select double_field from keyed.enc.`" + file + "` order by double_field");
    String some = all.cells().get(all.cells().size() / 2).get(0);
    Result hit = Result.of(client, "select count(*) from keyed.enc.`" + file + "` where double_field = " + some);
    long expected = all.cells().stream().filter(r -> r.get(0).equals(some)).count();
    assertEquals(String.valueOf(expected), hit.cells().get(0).get(0));
  }

  @Test
  public void withoutKeysTheQueryFailsNamingFileAndSetting() {
    for (String name : List.of("encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted")) {
      String file = parquet(name);
      Exception e = org.junit.Assert.assertThrows(Exception.class,
          () -> Result.of(client, "select double_field from keyless.enc.`" + file + "`"));
      assertTrue(e.getMessage(), e.getMessage().contains(file) && e.getMessage().contains("parquet.crypto.factory.class"));
      assertFalse(e.getMessage(), e.getMessage().contains(b64("0123456789012345")));
    }
  }
}
