package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.crypto.ExplicitKeysFactory;
import io.turboparquet.fuzz.ParquetJavaDigest;
import io.turboparquet.testing.CorpusFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;

/**
 * The CLI reads encrypted files with the keys of the Hadoop configuration's crypto factory
 * ({@code -D parquet.crypto.factory.class=...}), as parquet-java's reader does, and refuses them
 * clearly without.
 */
class EncryptedCliCryptoTest {
  private static final String FOOTER = b64("0123456789012345");
  private static final String COLUMNS = "double_field:" + b64("1234567890123450") + ",float_field:"
      + b64("1234567890123451");

  private static String b64(String ascii) {
    return Base64.getEncoder().encodeToString(ascii.getBytes(StandardCharsets.US_ASCII));
  }

  private static List<String> run(String... args) throws IOException {
    return MainTest.run(args);
  }

  private static String[] withKeys(String... args) {
    List<String> out = new ArrayList<>(List.of(args));
    out.addAll(List.of("-D", "parquet.crypto.factory.class=" + ExplicitKeysFactory.class.getName(),
        "-D", ExplicitKeysFactory.FOOTER_KEY + "=" + FOOTER, "-D", ExplicitKeysFactory.COLUMN_KEYS + "=" + COLUMNS,
        "-D", ExplicitKeysFactory.AAD_PREFIX + "=tester"));
    return out.toArray(String[]::new);
  }

  @Test
  void digestWithTheConfiguredFactoryIsParquetJavas() throws IOException {
    for (String name : List.of("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted")) {
      Path file = CorpusFiles.dir().resolve("encrypted").resolve(name);
      FileDecryptionProperties.Builder keys = FileDecryptionProperties.builder()
          .withFooterKey("0123456789012345".getBytes(StandardCharsets.US_ASCII))
          .withColumnKeys(Map.of(ColumnPath.get("double_field"), ColumnDecryptionProperties.builder("double_field")
              .withKey("1234567890123450".getBytes(StandardCharsets.US_ASCII)).build(), ColumnPath.get("float_field"),
              ColumnDecryptionProperties.builder("float_field").withKey("1234567890123451".getBytes(
                  StandardCharsets.US_ASCII)).build()));
      if (name.contains("aad")) {
        keys.withAADPrefix("tester".getBytes(StandardCharsets.US_ASCII));
      }
      List<String> expected = ParquetJavaDigest.digest(file, null, keys.build());
      // The prefix is only given for the file that needs it: a prefix the file was not made with is refused.
      String[] args = name.contains("aad") ? withKeys("digest", file.toString())
          : Arrays.stream(withKeys("digest", file.toString())).limit(8).toArray(String[]::new);
      assertEquals(expected, run(args), name);
      List<String> scan = run(Arrays.stream(args).map(a -> a.equals("digest") ? "scan" : a).toArray(String[]::new));
      assertTrue(scan.get(0).contains("rows"), scan.toString());
    }
  }

  @Test
  void metaListsAnEncryptedFooterAsParquetJavaReadsIt() throws IOException {
    Path file = CorpusFiles.dir().resolve("encrypted").resolve("encrypt_columns_and_footer.parquet.encrypted");
    FileDecryptionProperties keys = FileDecryptionProperties.builder()
        .withFooterKey("0123456789012345".getBytes(StandardCharsets.US_ASCII)).withoutFooterSignatureVerification()
        .withColumnKeys(Map.of(ColumnPath.get("double_field"), ColumnDecryptionProperties.builder("double_field")
            .withKey("1234567890123450".getBytes(StandardCharsets.US_ASCII)).build(), ColumnPath.get("float_field"),
            ColumnDecryptionProperties.builder("float_field").withKey("1234567890123451".getBytes(
                StandardCharsets.US_ASCII)).build())).build();
    ParquetMetadata theirs;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()),
        ParquetReadOptions.builder().withDecryption(keys).build())) {
      theirs = r.getFooter();
    }
    List<String> meta = run(Arrays.stream(withKeys("meta", file.toString())).limit(8).toArray(String[]::new));
    long rows = theirs.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum();
    String counts = meta.stream().filter(l -> l.startsWith("rows: ")).findFirst().orElse("");
    assertTrue(counts.startsWith("rows: " + rows + "  row groups: " + theirs.getBlocks().size() + "  "),
        meta.toString());
    for (var column : theirs.getFileMetaData().getSchema().getColumns()) {
      String name = String.join(".", column.getPath());
      assertTrue(meta.stream().anyMatch(l -> l.startsWith("  " + name + "  ")), name + " in " + meta);
    }
    IOException without = assertThrows(IOException.class, () -> run("meta", file.toString()));
    assertTrue(without.getMessage().contains("parquet.crypto.factory.class"), without.getMessage());
  }

  @Test
  void withoutKeysTheCliSaysWhatIsMissing() {
    Path file = CorpusFiles.dir().resolve("encrypted").resolve("encrypt_columns_and_footer.parquet.encrypted");
    IOException e = assertThrows(IOException.class, () -> run("digest", file.toString()));
    assertTrue(e.getMessage().contains(file.getFileName().toString())
        && e.getMessage().contains("parquet.crypto.factory.class"), e.getMessage());
    IOException wrong = assertThrows(IOException.class, () -> run("digest", file.toString(), "-D",
        "parquet.crypto.factory.class=" + ExplicitKeysFactory.class.getName(), "-D",
        ExplicitKeysFactory.FOOTER_KEY + "=" + b64("0123456789012349")));
    assertTrue(wrong.getMessage().contains("footer") && !wrong.getMessage().contains(b64("0123456789012349")),
        wrong.getMessage());
    assertFalse(wrong.getMessage().contains("0123456789012349"), wrong.getMessage());
  }
}
