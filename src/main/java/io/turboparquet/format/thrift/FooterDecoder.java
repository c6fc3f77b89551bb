package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;

import io.turboparquet.format.ColumnOrder;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.Schema;
import io.turboparquet.format.crypto.EncryptionAlgorithm;
import io.turboparquet.format.crypto.FileDecryptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Decodes a footer (Thrift FileMetaData, compact protocol) straight into our model, without
 * generated classes. What is materialised beyond the schema and the row-group skeleton depends
 * on {@link FooterOptions}.
 */
public final class FooterDecoder {
  private FooterDecoder() {}

  /** Every column chunk, no statistics. */
  public static FileMetadata decode(String file, long fileLength, byte[] footer, int offset, int length)
      throws ParquetCorruptionException {
    return decode(file, fileLength, footer, offset, length, FooterOptions.DEFAULT);
  }

  /** Decodes {@code footer[offset, offset + length)} of {@code file} as {@code options} asks. */
  public static FileMetadata decode(String file, long fileLength, byte[] footer, int offset, int length,
      FooterOptions options) throws ParquetCorruptionException {
    try {
      return decode(file, fileLength, footer, offset, length, options, null, null);
    } catch (ParquetCorruptionException e) {
      throw e;
    } catch (IOException e) { // only key look-ups throw other IOExceptions, and there are none here
      throw new IllegalStateException(e);
    }
  }

  /**
   * Decodes the footer of a file that may be encrypted (Parquet modular encryption).
   *
   * @param properties the decryption properties for this file, or null when none are configured:
   *     a plaintext footer's encrypted columns then fail when they are read
   * @param encryptedFooter the decryptor of a file whose footer was encrypted (and is decrypted in
   *     {@code footer} now), else null
   */
  public static FileMetadata decode(String file, long fileLength, byte[] footer, int offset, int length,
      FooterOptions options, org.apache.parquet.crypto.FileDecryptionProperties properties,
      FileDecryptor encryptedFooter) throws IOException {
    // A plaintext footer tells its algorithm (field 8) after the row groups (field 4): with keys to
    // use, the row groups wait until it is known.
    boolean deferRowGroups = properties != null && encryptedFooter == null;
    EncryptionAlgorithm algorithm = null;
    byte[] signingKeyMetadata = null;
    ThriftCursor r = new ThriftCursor(file, "footer", footer, offset, length, options.maxStringLength());
    boolean hasVersion = false;
    boolean hasNumRows = false;
    long numRows = 0;
    Schema schema = null;
    RowGroupDecoder rowGroupDecoder = null;
    List<RowGroupMeta> rowGroups = null;
    int rowGroupsAt = -1;
    Map<String, String> keyValues = new LinkedHashMap<>();
    String createdBy = null;
    List<ColumnOrder> columnOrders = List.of();
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        r.readI32();
        hasVersion = true;
        f = r.readField(1);
      }
      if (f == (2 << 4 | LIST)) {
        schema = SchemaDecoder.read(r);
        rowGroupDecoder = new RowGroupDecoder(r, fileLength, schema.columns(), options.columns().select(schema),
            options.statistics().select(schema));
        rowGroupDecoder.decryptor(encryptedFooter);
        f = r.readField(2);
      }
      if (f == (3 << 4 | I64)) {
        numRows = r.readI64();
        hasNumRows = true;
        f = r.readField(3);
      }
      if (f == (4 << 4 | LIST)) {
        if (rowGroupDecoder != null && !deferRowGroups) {
          rowGroups = rowGroupDecoder.readList();
        } else { // chunks need the schema, which comes later in this footer: come back to them
          rowGroupsAt = r.position();
          r.skip(LIST);
        }
        f = r.readField(4);
      }
      if (f == (5 << 4 | LIST)) {
        keyValues(r, options.keyValues(), keyValues);
        f = r.readField(5);
      }
      if (f == (6 << 4 | BINARY)) {
        createdBy = r.readString("FileMetaData.created_by");
        f = r.readField(6);
      }
      if (f == (7 << 4 | LIST)) {
        columnOrders = columnOrders(r);
        f = r.readField(7);
      }
      if (f == (8 << 4 | STRUCT)) {
        algorithm = CryptoDecoder.algorithm(r);
        f = r.readField(8);
      }
      if (f == (9 << 4 | BINARY)) {
        signingKeyMetadata = r.readBinary("FileMetaData.footer_signing_key_metadata");
        f = r.readField(9);
      }
      f = r.position() == at ? r.skipField(f) : f; // fields from the future
    }
    int structEnd = r.position();
    if (deferRowGroups && algorithm == null) {
      FileDecryptor.checkPlaintextAllowed(file, properties);
    } else if (deferRowGroups && rowGroupDecoder != null) {
      FileDecryptor decryptor = FileDecryptor.plaintextFooter(file, properties, algorithm, signingKeyMetadata);
      // The signature (nonce and tag) follows the struct; the footer's length counts it.
      decryptor.verifyFooter(footer, offset, structEnd - offset, structEnd, offset + length);
      rowGroupDecoder.decryptor(decryptor);
    }
    r.require(hasVersion, "FileMetaData.version");
    if (schema == null) {
      throw r.corrupt("FileMetaData.schema is missing");
    }
    r.require(hasNumRows, "FileMetaData.num_rows");
    if (rowGroups == null) {
      r.require(rowGroupsAt >= 0, "FileMetaData.row_groups");
      int end = r.position();
      r.seek(rowGroupsAt);
      rowGroups = rowGroupDecoder.readList();
      r.seek(end);
    }
    if (numRows < 0) {
      throw r.corrupt("FileMetaData.num_rows is negative: " + numRows);
    }
    if (!columnOrders.isEmpty() && columnOrders.size() != schema.columns().size()) {
      // Nothing can say which order belongs to which leaf: no leaf's bounds are used.
      columnOrders = Collections.nCopies(schema.columns().size(), ColumnOrder.UNKNOWN);
    }
    return new FileMetadata(file, fileLength, length, numRows, createdBy, schema, rowGroups, keyValues,
        columnOrders);
  }

  /**
   * FileMetaData.column_orders: a list of the union {@code ColumnOrder} (1: TYPE_ORDER, 2:
   * IEEE_754_TOTAL_ORDER, 3: INT96_TIMESTAMP_ORDER, each an empty struct); any other member,
   * or none, is {@link ColumnOrder#UNKNOWN}.
   */
  private static List<ColumnOrder> columnOrders(ThriftCursor r) throws ParquetCorruptionException {
    int n = r.readList("FileMetaData.column_orders", STRUCT);
    List<ColumnOrder> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ColumnOrder order = ColumnOrder.UNKNOWN;
      int last = 0;
      for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
        last = ThriftCursor.fieldId(f);
        r.skip(ThriftCursor.fieldType(f)); // the members are empty structs (future fields skipped)
        if (ThriftCursor.fieldType(f) == STRUCT) {
          order = switch (last) {
            case 1 -> ColumnOrder.TYPE_DEFINED;
            case 2 -> ColumnOrder.IEEE_754_TOTAL;
            case 3 -> ColumnOrder.INT96_TIMESTAMP;
            default -> ColumnOrder.UNKNOWN;
          };
        }
      }
      out.add(order);
    }
    return out;
  }

  /**
   * FileMetaData.key_value_metadata under the keys {@code keep} accepts; a missing value reads as "",
   * a repeated key keeps the last. A value is located first and made a string only if its key is kept.
   */
  private static void keyValues(ThriftCursor r, Predicate<String> keep, Map<String, String> out)
      throws ParquetCorruptionException {
    int n = r.readList("FileMetaData.key_value_metadata", STRUCT);
    for (int i = 0; i < n; i++) {
      String key = null;
      long value = -1; // a span in the footer's bytes
      for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
        int at = r.position();
        if (f == (1 << 4 | BINARY)) {
          key = r.readString("KeyValue.key");
          f = r.readField(1);
        }
        if (f == (2 << 4 | BINARY)) {
          value = r.readSpan("KeyValue.value");
          f = r.readField(2);
        }
        f = r.position() == at ? r.skipField(f) : f;
      }
      r.require(key != null, "KeyValue.key");
      if (keep.test(key)) {
        out.put(key, value < 0 ? "" : r.string(value));
      }
    }
  }
}
