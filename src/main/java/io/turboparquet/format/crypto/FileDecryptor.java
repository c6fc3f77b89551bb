package io.turboparquet.format.crypto;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.ErrorContext;
import java.io.IOException;
import java.lang.reflect.Method;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.crypto.AADPrefixVerifier;
import org.apache.parquet.crypto.DecryptionKeyRetriever;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * The keys and AADs of one encrypted file, from parquet-java's {@link FileDecryptionProperties}
 * (explicit keys, or a key retriever fed each key's metadata, as parquet-java's reader takes them):
 * decrypts or verifies the footer and makes each encrypted chunk's {@link ChunkDecryptor}. Used while
 * one footer is decoded, on one thread. Key bytes appear in no message.
 */
public final class FileDecryptor {
  /** Why an encrypted file cannot be read when nothing gave keys. */
  public static final String NO_KEYS = "no decryption properties are configured (set parquet.crypto.factory.class"
      + " in the Hadoop configuration, see docs/encryption.md)";

  private final ErrorContext where;
  private final FileDecryptionProperties properties;
  private final EncryptionAlgorithm algorithm;
  private final byte[] fileAad;
  private final ModuleCipher footer; // null when the footer is plaintext and no key was found for it
  private final Map<Integer, ModuleCipher> columnKeys = new HashMap<>();

  private FileDecryptor(ErrorContext where, FileDecryptionProperties properties, EncryptionAlgorithm algorithm,
      byte[] fileAad, ModuleCipher footer) {
    this.where = where;
    this.properties = properties;
    this.algorithm = algorithm;
    this.fileAad = fileAad;
    this.footer = footer;
  }

  /**
   * For a file whose footer is encrypted (magic PARE): {@code keyMetadata} is FileCryptoMetaData's.
   * Fails when the properties are null or give no footer key, or the AAD prefix does not check out.
   */
  public static FileDecryptor encryptedFooter(String file, FileDecryptionProperties properties,
      EncryptionAlgorithm algorithm, byte[] keyMetadata) throws IOException {
    ErrorContext where = ErrorContext.of(file);
    if (properties == null) {
      throw new KeyUnavailableException(where, "has an encrypted footer and cannot be read: " + NO_KEYS);
    }
    byte[] key = footerKey(properties, keyMetadata, where);
    if (key == null) {
      throw new KeyUnavailableException(where, "has an encrypted footer and the decryption properties give no key for"
          + " it");
    }
    return new FileDecryptor(where, properties, algorithm, fileAad(where, properties, algorithm),
        cipher(key, where, "the footer"));
  }

  /**
   * For an encrypted file with a plaintext footer (FileMetaData.encryption_algorithm set):
   * {@code signingKeyMetadata} is FileMetaData.footer_signing_key_metadata. Without a footer key
   * the footer cannot be verified: that fails only when the properties ask for the check.
   */
  public static FileDecryptor plaintextFooter(String file, FileDecryptionProperties properties,
      EncryptionAlgorithm algorithm, byte[] signingKeyMetadata) throws IOException {
    ErrorContext where = ErrorContext.of(file);
    byte[] key = footerKey(properties, signingKeyMetadata, where);
    if (key == null && properties.checkFooterIntegrity()) {
      throw new KeyUnavailableException(where, "has a signed plaintext footer and the decryption properties give no"
          + " key to verify it");
    }
    return new FileDecryptor(where, properties, algorithm, fileAad(where, properties, algorithm),
        key == null ? null : cipher(key, where, "the footer"));
  }

  /**
   * Throws when {@code properties} (non-null) refuse unencrypted files, as parquet-java's reader does
   * unless they were built with {@code withPlaintextFilesAllowed()}.
   */
  public static void checkPlaintextAllowed(String file, FileDecryptionProperties properties) throws IOException {
    if (!(Boolean) packagePrivate(properties, "plaintextFilesAllowed")) {
      throw ErrorContext.of(file).io("is not encrypted, and the decryption properties do not allow plaintext files"
          + " (parquet-java's FileDecryptionProperties.Builder.withPlaintextFilesAllowed)");
    }
  }

  public EncryptionAlgorithm algorithm() {
    return algorithm;
  }

  /** The plaintext footer of the encrypted footer module {@code buf[off, off + len)} (length prefix included). */
  public byte[] footer(byte[] buf, int off, int len) throws ParquetCorruptionException {
    return ChunkDecryptor.open(footer, where, buf, off, len, Aad.of(fileAad, ModuleType.FOOTER, 0, 0, 0),
        ModuleType.FOOTER);
  }

  /**
   * Verifies the signature of the plaintext footer {@code buf[off, off + len)}: the 28 bytes (nonce
   * and tag) at {@code signatureAt}. No-op without a footer key when the properties do not ask for the
   * check ({@link #plaintextFooter}).
   */
  public void verifyFooter(byte[] buf, int off, int len, int signatureAt, int end) throws ParquetCorruptionException {
    if (footer == null) {
      return;
    }
    int n = ModuleCipher.NONCE + ModuleCipher.TAG;
    if (end - signatureAt != n) {
      throw new ParquetCorruptionException(where, "the signed plaintext footer is followed by " + (end - signatureAt)
          + " bytes, not the " + n + " of its signature (nonce and tag)");
    }
    byte[] signature = Arrays.copyOfRange(buf, signatureAt, signatureAt + n);
    try {
      if (!footer.signs(signature, buf, off, len, Aad.of(fileAad, ModuleType.FOOTER, 0, 0, 0))) {
        throw new ParquetCorruptionException(where, "the plaintext footer's signature does not match: wrong footer"
            + " key or AAD prefix, or the footer was altered");
      }
    } catch (GeneralSecurityException e) {
      throw ChunkDecryptor.failed(where, ModuleType.FOOTER, e);
    }
  }

  /**
   * The decryptor of the chunk of leaf {@code column} (its path {@code path}) in row group
   * {@code rowGroup}, encrypted with the footer key or with a key of its own found from the
   * properties or {@code keyMetadata}; one that fails when the chunk is read if there is no key.
   */
  public ChunkDecryptor chunk(int rowGroup, int column, List<String> path, boolean footerKey, byte[] keyMetadata)
      throws ParquetCorruptionException {
    ErrorContext at = where.inRowGroup(rowGroup).column(String.join(".", path));
    if (rowGroup > Short.MAX_VALUE || column > Short.MAX_VALUE) {
      throw new ParquetCorruptionException(at, "an encrypted file has at most 32,768 row groups and columns");
    }
    ModuleCipher cipher;
    if (footerKey) {
      if (footer == null) {
        return ChunkDecryptor.unavailable(at, "it is encrypted with the footer key, which the decryption properties"
            + " do not give");
      }
      cipher = footer;
    } else {
      cipher = columnKeys.get(column);
      if (cipher == null) {
        // A column without its key fails when it is read, not here: the file's other columns stay readable.
        byte[] key;
        try {
          key = key(properties.getColumnKey(ColumnPath.get(path.toArray(String[]::new))),
              properties.getKeyRetriever(), keyMetadata, "the column");
        } catch (KeyError e) {
          return ChunkDecryptor.unavailable(at, e.getMessage());
        }
        if (key == null) {
          return ChunkDecryptor.unavailable(at, "the decryption properties give no key for it");
        }
        try {
          cipher = new ModuleCipher(key);
        } catch (IllegalArgumentException e) {
          return ChunkDecryptor.unavailable(at, "its key is unusable: " + e.getMessage());
        }
        columnKeys.put(column, cipher);
      }
    }
    return new ChunkDecryptor(at, cipher, algorithm.ctrPages(), fileAad, rowGroup, column);
  }

  /** The explicit key, else the retriever's for {@code keyMetadata}, else null. */
  private static byte[] key(byte[] explicit, DecryptionKeyRetriever retriever, byte[] keyMetadata, String what)
      throws KeyError {
    if (explicit != null) {
      return explicit;
    }
    if (retriever == null || keyMetadata == null) {
      return null;
    }
    try {
      return retriever.getKey(keyMetadata);
    } catch (RuntimeException e) { // KeyAccessDeniedException, ParquetCryptoRuntimeException, a KMS client's own
      throw new KeyError("the key retriever found no key for " + what + ": " + e.getMessage(), e);
    }
  }

  /** The footer's key, else an error naming the file. */
  private static byte[] footerKey(FileDecryptionProperties properties, byte[] keyMetadata, ErrorContext where)
      throws IOException {
    try {
      return key(properties.getFooterKey(), properties.getKeyRetriever(), keyMetadata, "the footer");
    } catch (KeyError e) {
      throw where.io(e.getMessage(), e.getCause());
    }
  }

  /** Why a key could not be had, without location (its users add theirs). */
  private static final class KeyError extends Exception {
    KeyError(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static ModuleCipher cipher(byte[] key, ErrorContext where, String what) throws IOException {
    try {
      return new ModuleCipher(key);
    } catch (IllegalArgumentException e) {
      throw where.io("the key of " + what + " is unusable: " + e.getMessage());
    }
  }

  /**
   * The AAD prefix and file-unique part every module AAD starts with, after parquet-java's rules: a
   * prefix the file stores and the properties give must be equal; one the writer did not store must
   * be given; one the properties give must have been used; a verifier checks a stored one.
   */
  private static byte[] fileAad(ErrorContext where, FileDecryptionProperties properties, EncryptionAlgorithm algorithm)
      throws IOException {
    byte[] stored = algorithm.aadPrefix();
    byte[] given = properties.getAADPrefix();
    if (algorithm.supplyAadPrefix() && given == null) {
      throw new KeyUnavailableException(where, "was encrypted with an AAD prefix it does not store: the decryption"
          + " properties must give it");
    }
    if (given != null && stored != null && !Arrays.equals(given, stored)) {
      throw new ParquetCorruptionException(where, "stores an AAD prefix other than the one the decryption properties"
          + " give");
    }
    if (given != null && stored == null && !algorithm.supplyAadPrefix()) {
      throw new ParquetCorruptionException(where, "was encrypted without an AAD prefix, but the decryption properties"
          + " give one");
    }
    AADPrefixVerifier verifier = (AADPrefixVerifier) packagePrivate(properties, "getAADPrefixVerifier");
    if (verifier != null && stored != null) {
      try {
        verifier.verify(stored);
      } catch (RuntimeException e) {
        throw where.io("its AAD prefix is refused by the AAD prefix verifier: " + e.getMessage(), e);
      }
    }
    byte[] prefix = given != null ? given : stored != null ? stored : new byte[0];
    byte[] unique = algorithm.aadFileUnique();
    byte[] out = Arrays.copyOf(prefix, prefix.length + unique.length);
    System.arraycopy(unique, 0, out, prefix.length, unique.length);
    return out;
  }

  /** parquet-java 1.15 keeps these two accessors package-private; its reader honours them, so do we. */
  private static Object packagePrivate(FileDecryptionProperties properties, String method) {
    try {
      Method m = FileDecryptionProperties.class.getDeclaredMethod(method);
      m.setAccessible(true);
      return m.invoke(properties);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("parquet-java's FileDecryptionProperties lacks " + method, e);
    }
  }
}
