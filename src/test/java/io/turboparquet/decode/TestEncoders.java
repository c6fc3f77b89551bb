package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.HEAP;
import static io.turboparquet.decode.DecodeTestSupport.bytes;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.io.api.Binary;

/** Encodes test values with parquet-java's own writers (dictionary pages built by hand from PLAIN). */
final class TestEncoders {
  private static final int CAP = 1024;
  private static final int PAGE = 1 << 20;

  /** A data page's values section and, for dictionary encodings, its dictionary page. */
  record Encoded(byte[] section, byte[] dictionaryPage, int dictionarySize) {}

  private TestEncoders() {}

  static Encoded encode(Encoding encoding, PhysicalType type, int typeLength, List<byte[]> values) {
    if (encoding.isDictionary()) {
      return dictionary(type, typeLength, values);
    }
    ValuesWriter w = switch (encoding) {
      case PLAIN -> switch (type) {
        case BOOLEAN -> new BooleanPlainValuesWriter();
        case INT96 -> new FixedLenByteArrayPlainValuesWriter(12, CAP, PAGE, HEAP);
        case FIXED_LEN_BYTE_ARRAY -> new FixedLenByteArrayPlainValuesWriter(typeLength, CAP, PAGE, HEAP);
        default -> new PlainValuesWriter(CAP, PAGE, HEAP);
      };
      case RLE -> new RunLengthBitPackingHybridValuesWriter(1, CAP, PAGE, HEAP);
      case DELTA_BINARY_PACKED -> type == PhysicalType.INT32
          ? new DeltaBinaryPackingValuesWriterForInteger(CAP, PAGE, HEAP)
          : new DeltaBinaryPackingValuesWriterForLong(CAP, PAGE, HEAP);
      case DELTA_LENGTH_BYTE_ARRAY -> new DeltaLengthByteArrayValuesWriter(CAP, PAGE, HEAP);
      case DELTA_BYTE_ARRAY -> new DeltaByteArrayWriter(CAP, PAGE, HEAP);
      case BYTE_STREAM_SPLIT -> switch (type) {
        // FLOAT and DOUBLE go through the integer writers so NaN payloads are kept bit for bit.
        case INT32, FLOAT -> new ByteStreamSplitValuesWriter.IntegerByteStreamSplitValuesWriter(CAP, PAGE, HEAP);
        case INT64, DOUBLE -> new ByteStreamSplitValuesWriter.LongByteStreamSplitValuesWriter(CAP, PAGE, HEAP);
        default -> new ByteStreamSplitValuesWriter.FixedLenByteArrayByteStreamSplitValuesWriter(typeLength, CAP, PAGE, HEAP);
      };
      default -> throw new IllegalArgumentException(encoding + " " + type);
    };
    for (byte[] v : values) {
      write(w, type, v);
    }
    byte[] section = bytes(w.getBytes());
    w.close();
    return new Encoded(section, null, 0);
  }

  /** Writes one value; FLOAT and DOUBLE as their raw bits, which PLAIN and BSS store identically. */
  static void write(ValuesWriter w, PhysicalType type, byte[] v) {
    ByteBuffer b = ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN);
    switch (type) {
      case BOOLEAN -> w.writeBoolean(v[0] != 0);
      case INT32, FLOAT -> w.writeInteger(b.getInt());
      case INT64, DOUBLE -> w.writeLong(b.getLong());
      case INT96, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY -> w.writeBytes(Binary.fromConstantByteArray(v));
    }
  }

  /** Distinct values PLAIN-encoded as the dictionary page; the section is bit width + hybrid indices. */
  static Encoded dictionary(PhysicalType type, int typeLength, List<byte[]> values) {
    Map<String, Integer> ids = new LinkedHashMap<>();
    ByteArrayOutputStream dict = new ByteArrayOutputStream();
    int[] indices = new int[values.size()];
    for (int i = 0; i < values.size(); i++) {
      byte[] v = values.get(i);
      String key = java.util.HexFormat.of().formatHex(v);
      Integer id = ids.get(key);
      if (id == null) {
        id = ids.size();
        ids.put(key, id);
        if (type == PhysicalType.BYTE_ARRAY) {
          dict.writeBytes(DecodeTestSupport.le(v.length));
        }
        dict.writeBytes(v);
      }
      indices[i] = id;
    }
    int bitWidth = 32 - Integer.numberOfLeadingZeros(Math.max(0, ids.size() - 1));
    return new Encoded(indexSection(bitWidth, indices), dict.toByteArray(), ids.size());
  }

  static byte[] indexSection(int bitWidth, int[] indices) {
    try {
      RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(bitWidth, CAP, PAGE, HEAP);
      for (int i : indices) {
        enc.writeInt(i);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(bitWidth);
      out.writeBytes(bytes(enc.toBytes()));
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
