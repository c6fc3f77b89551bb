package io.turboparquet.format.crypto;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.DecryptionPropertiesFactory;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.crypto.ParquetCryptoRuntimeException;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * A {@link DecryptionPropertiesFactory} of keys written in the Hadoop configuration itself, for tests
 * and trials (a key in a configuration file is only as secret as that file; use a KMS, e.g.
 * parquet-java's {@code PropertiesDrivenCryptoFactory}, in production). Named by
 * {@code parquet.crypto.factory.class}, so parquet-java's reader takes it too:
 * <ul>
 *   <li>{@value #FOOTER_KEY}: the footer key, base64;
 *   <li>{@value #COLUMN_KEYS}: {@code dotted.column:base64key} pairs, comma-separated;
 *   <li>{@value #AAD_PREFIX}: the AAD prefix (text) of files that do not store it.
 * </ul>
 * Plaintext files stay readable.
 */
public final class ExplicitKeysFactory implements DecryptionPropertiesFactory {
  public static final String FOOTER_KEY = "turbo.parquet.crypto.footer.key";
  public static final String COLUMN_KEYS = "turbo.parquet.crypto.column.keys";
  public static final String AAD_PREFIX = "turbo.parquet.crypto.aad.prefix";

  @Override
  public FileDecryptionProperties getFileDecryptionProperties(Configuration conf, Path file) {
    FileDecryptionProperties.Builder b = FileDecryptionProperties.builder().withPlaintextFilesAllowed();
    String footer = conf.getTrimmed(FOOTER_KEY);
    if (footer == null || footer.isEmpty()) {
      throw new ParquetCryptoRuntimeException(FOOTER_KEY + " is not set");
    }
    b.withFooterKey(base64(footer, FOOTER_KEY));
    Map<ColumnPath, ColumnDecryptionProperties> columns = new HashMap<>();
    for (String pair : conf.getTrimmedStrings(COLUMN_KEYS)) {
      int colon = pair.lastIndexOf(':');
      if (colon <= 0) {
        throw new ParquetCryptoRuntimeException(COLUMN_KEYS + ": an entry is not column:key"); // no key text
      }
      ColumnPath path = ColumnPath.fromDotString(pair.substring(0, colon));
      columns.put(path, ColumnDecryptionProperties.builder(path).withKey(base64(pair.substring(colon + 1),
          COLUMN_KEYS + " of " + path.toDotString())).build());
    }
    if (!columns.isEmpty()) {
      b.withColumnKeys(columns);
    }
    String prefix = conf.get(AAD_PREFIX);
    if (prefix != null) {
      b.withAADPrefix(prefix.getBytes(StandardCharsets.UTF_8));
    }
    return b.build();
  }

  private static byte[] base64(String text, String what) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new ParquetCryptoRuntimeException(what + " is not base64"); // the text is a key: not repeated here
    }
  }
}
