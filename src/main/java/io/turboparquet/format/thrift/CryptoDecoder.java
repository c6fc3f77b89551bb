package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;
import static io.turboparquet.format.thrift.ThriftCursor.isBool;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.crypto.EncryptionAlgorithm;
import java.util.ArrayList;
import java.util.List;

/** The encryption structs of parquet.thrift (Encryption.md 5.2 - 5.5). */
public final class CryptoDecoder {
  private CryptoDecoder() {}

  /**
   * FileCryptoMetaData, which precedes the encrypted footer of a PARE file.
   *
   * @param length the bytes the struct took: the encrypted footer module follows
   */
  public record FileCrypto(EncryptionAlgorithm algorithm, byte[] keyMetadata, int length) {}

  /** ColumnCryptoMetaData: the footer's key, or a key of the column's own with its path and metadata. */
  record ColumnCrypto(boolean footerKey, List<String> path, byte[] keyMetadata) {}

  /**
   * <pre>
   * struct FileCryptoMetaData {
   *   1: required EncryptionAlgorithm encryption_algorithm
   *   2: optional binary key_metadata
   * }</pre>
   */
  public static FileCrypto fileCryptoMetaData(String file, byte[] buf, int offset, int length, int maxStringLength)
      throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor(file, "file crypto metadata", buf, offset, length, maxStringLength);
    EncryptionAlgorithm algorithm = null;
    byte[] keyMetadata = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | STRUCT)) {
        algorithm = algorithm(r);
        f = r.readField(1);
      }
      if (f == (2 << 4 | BINARY)) {
        keyMetadata = r.readBinary("FileCryptoMetaData.key_metadata");
        f = r.readField(2);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(algorithm != null, "FileCryptoMetaData.encryption_algorithm");
    return new FileCrypto(algorithm, keyMetadata, r.position() - offset);
  }

  /**
   * <pre>
   * union EncryptionAlgorithm { 1: AesGcmV1 AES_GCM_V1  2: AesGcmCtrV1 AES_GCM_CTR_V1 }
   * struct AesGcmV1 {   (AesGcmCtrV1 has the same fields)
   *   1: optional binary aad_prefix
   *   2: optional binary aad_file_unique
   *   3: optional bool supply_aad_prefix
   * }</pre>
   * A union with no member this reader knows is refused.
   */
  static EncryptionAlgorithm algorithm(ThriftCursor r) throws ParquetCorruptionException {
    EncryptionAlgorithm out = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if ((last == 1 || last == 2) && fieldType(f) == STRUCT) {
        out = aes(r, last == 2);
      } else {
        r.skip(fieldType(f));
      }
    }
    if (out == null) {
      throw r.corrupt("EncryptionAlgorithm names no algorithm this reader knows (AES_GCM_V1, AES_GCM_CTR_V1)");
    }
    return out;
  }

  private static EncryptionAlgorithm aes(ThriftCursor r, boolean ctr) throws ParquetCorruptionException {
    byte[] prefix = null;
    byte[] unique = null;
    boolean supply = false;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (last == 1 && fieldType(f) == BINARY) {
        prefix = r.readBinary("AesGcmV1.aad_prefix");
      } else if (last == 2 && fieldType(f) == BINARY) {
        unique = r.readBinary("AesGcmV1.aad_file_unique");
      } else if (last == 3 && isBool(f)) {
        supply = boolField(f);
      } else {
        r.skip(fieldType(f));
      }
    }
    return new EncryptionAlgorithm(ctr, prefix, unique, supply);
  }

  /**
   * <pre>
   * union ColumnCryptoMetaData {
   *   1: EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY   (an empty struct)
   *   2: EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY
   * }
   * struct EncryptionWithColumnKey {
   *   1: required list&lt;string&gt; path_in_schema
   *   2: optional binary key_metadata
   * }</pre>
   */
  static ColumnCrypto column(ThriftCursor r) throws ParquetCorruptionException {
    ColumnCrypto out = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (last == 1 && fieldType(f) == STRUCT) {
        r.skip(STRUCT);
        out = new ColumnCrypto(true, null, null);
      } else if (last == 2 && fieldType(f) == STRUCT) {
        out = columnKey(r);
      } else {
        r.skip(fieldType(f));
      }
    }
    if (out == null) {
      throw r.corrupt("ColumnCryptoMetaData names neither the footer key nor a column key");
    }
    return out;
  }

  private static ColumnCrypto columnKey(ThriftCursor r) throws ParquetCorruptionException {
    List<String> path = null;
    byte[] keyMetadata = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (last == 1 && fieldType(f) == LIST) {
        int n = r.readList("EncryptionWithColumnKey.path_in_schema", BINARY);
        path = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          path.add(r.readString("EncryptionWithColumnKey.path_in_schema"));
        }
      } else if (last == 2 && fieldType(f) == BINARY) {
        keyMetadata = r.readBinary("EncryptionWithColumnKey.key_metadata");
      } else {
        r.skip(fieldType(f));
      }
    }
    r.require(path != null, "EncryptionWithColumnKey.path_in_schema");
    return new ColumnCrypto(false, path, keyMetadata);
  }
}
