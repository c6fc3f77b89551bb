package io.turboparquet.decode;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;

/** Picks the {@link ValuesDecoder} for a page's encoding and the column's physical type. */
public final class Decoders {
  private Decoders() {}

  /**
   * A new decoder (per column, not thread-safe). {@code typeLength} matters only for
   * FIXED_LEN_BYTE_ARRAY; {@code dictionaryOrNull} only for the dictionary encodings.
   */
  public static ValuesDecoder create(Encoding encoding, PhysicalType type, int typeLength, Dictionary dictionaryOrNull) {
    return switch (encoding) {
      case PLAIN -> PlainDecoders.create(type, typeLength);
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
        if (type == PhysicalType.BOOLEAN) {
          throw unsupported(encoding, type);
        }
        if (dictionaryOrNull == null) {
          throw new DecodeException("dictionary-encoded page without a dictionary page");
        }
        if (dictionaryOrNull.type() != type) {
          throw new DecodeException(encoding + " page of a " + type + " column with a " + dictionaryOrNull.type()
              + " dictionary");
        }
        if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY && dictionaryOrNull.width() != typeLength) {
          throw new DecodeException(encoding + " page of a FIXED_LEN_BYTE_ARRAY(" + typeLength + ") column with a dictionary of "
              + dictionaryOrNull.width() + "-byte values");
        }
        yield new DictionaryDecoder(encoding.name(), type, dictionaryOrNull);
      }
      case RLE -> {
        if (type != PhysicalType.BOOLEAN) {
          throw unsupported(encoding, type);
        }
        yield new RleBooleanDecoder();
      }
      case DELTA_BINARY_PACKED -> switch (type) {
        case INT32, INT64 -> new DeltaBinaryPackedDecoder(type);
        default -> throw unsupported(encoding, type);
      };
      case DELTA_LENGTH_BYTE_ARRAY -> {
        if (type != PhysicalType.BYTE_ARRAY) {
          throw unsupported(encoding, type);
        }
        yield new DeltaLengthByteArrayDecoder();
      }
      case DELTA_BYTE_ARRAY -> switch (type) {
        case BYTE_ARRAY -> new DeltaByteArrayDecoder(type, ValueSink.VARIABLE);
        case FIXED_LEN_BYTE_ARRAY -> new DeltaByteArrayDecoder(type, checkTypeLength(typeLength));
        default -> throw unsupported(encoding, type);
      };
      case BYTE_STREAM_SPLIT -> switch (type) {
        case FLOAT, DOUBLE, INT32, INT64 -> new ByteStreamSplitDecoder(type, type.fixedWidth());
        case FIXED_LEN_BYTE_ARRAY -> new ByteStreamSplitDecoder(type, checkTypeLength(typeLength));
        default -> throw unsupported(encoding, type);
      };
      // BIT_PACKED is deprecated and only ever described levels, never values.
      case BIT_PACKED -> throw unsupported(encoding, type);
    };
  }

  static int checkTypeLength(int typeLength) {
    if (typeLength <= 0) {
      throw new DecodeException("FIXED_LEN_BYTE_ARRAY column with type length " + typeLength);
    }
    return typeLength;
  }

  private static UnsupportedOperationException unsupported(Encoding encoding, PhysicalType type) {
    return new UnsupportedOperationException("encoding " + encoding + " is not supported for " + type + " values");
  }
}
