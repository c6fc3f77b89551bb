package io.turboparquet.format.crypto;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.crypto.DecryptionPropertiesFactory;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.crypto.ParquetCryptoRuntimeException;

/**
 * Where a scan gets each file's decryption properties: as parquet-java's reader does, from the
 * {@link DecryptionPropertiesFactory} that {@code parquet.crypto.factory.class} names in the Hadoop
 * configuration, so one setting serves both readers (the CLI's {@code -D}, Drill's dfs plugin
 * {@code config}). Properties are asked for per file: a factory may give each file its own (keys
 * found through the file's key material).
 */
@FunctionalInterface
public interface DecryptionKeys {
  /** No keys: encrypted files fail, naming what they lack. */
  DecryptionKeys NONE = file -> null;

  /** The properties for {@code file}, or null when there are none. */
  FileDecryptionProperties forFile(Path file) throws IOException;

  /** The same properties for every file (explicit keys, in tests and tools). */
  static DecryptionKeys of(FileDecryptionProperties properties) {
    return file -> properties;
  }

  /** The factory {@code conf} names under {@code parquet.crypto.factory.class}, else {@link #NONE}. */
  static DecryptionKeys fromHadoop(Configuration conf) {
    DecryptionPropertiesFactory factory = DecryptionPropertiesFactory.loadFactory(conf);
    if (factory == null) {
      return NONE;
    }
    return file -> {
      try {
        return factory.getFileDecryptionProperties(conf, file);
      } catch (ParquetCryptoRuntimeException e) { // a KMS or key-material failure: the file's own error
        throw new IOException("[" + file + "] the crypto factory " + factory.getClass().getName()
            + " gave no decryption properties: " + e.getMessage(), e);
      }
    };
  }
}
