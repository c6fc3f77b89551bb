package io.turboparquet.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * The keys both readers of a fuzz case get, so that mutations of encrypted seeds (parquet-testing's
 * {@code encrypted/} files, 128-bit keys as its KEYS.md gives them) are decrypted and compared like
 * any other case; unencrypted files read as without keys.
 */
final class FuzzKeys {
  private FuzzKeys() {}

  static FileDecryptionProperties properties() {
    return FileDecryptionProperties.builder().withPlaintextFilesAllowed()
        .withFooterKey(ascii("0123456789012345"))
        .withColumnKeys(Map.of(
            ColumnPath.get("double_field"), ColumnDecryptionProperties.builder("double_field")
                .withKey(ascii("1234567890123450")).build(),
            ColumnPath.get("float_field"), ColumnDecryptionProperties.builder("float_field")
                .withKey(ascii("1234567890123451")).build()))
        .build();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
