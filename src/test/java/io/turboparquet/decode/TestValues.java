package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.le;
import static io.turboparquet.decode.DecodeTestSupport.list;

import io.turboparquet.format.PhysicalType;
import java.util.List;
import java.util.Random;

/** Value shapes per physical type, each value in its decoded form (little-endian; BOOLEAN one 0/1 byte). */
final class TestValues {
  static final List<String> SHAPES = List.of("empty", "one", "constant", "random", "extremes", "sorted");

  private TestValues() {}

  /** The byte width of FIXED_LEN_BYTE_ARRAY values in these tests (others: the type's own). */
  static int width(PhysicalType type, int typeLength) {
    return type == PhysicalType.FIXED_LEN_BYTE_ARRAY ? typeLength
        : type == PhysicalType.BYTE_ARRAY ? ValueSink.VARIABLE : type.fixedWidth();
  }

  static List<byte[]> of(PhysicalType type, int typeLength, String shape) {
    Random r = new Random(type.ordinal() * 1000L + typeLength * 7L + shape.hashCode());
    int n = switch (shape) {
      case "empty" -> 0;
      case "one" -> 1;
      default -> 1500 + r.nextInt(700);
    };
    return switch (type) {
      case BOOLEAN -> list(n, i -> new byte[] {(byte) switch (shape) {
        case "constant", "one" -> 1;
        case "sorted" -> i < n / 3 ? 0 : 1;
        case "extremes" -> (i / 50) % 2;
        default -> r.nextInt(2);
      }});
      case INT32 -> list(n, i -> le(switch (shape) {
        case "constant", "one" -> Integer.MIN_VALUE;
        case "sorted" -> i * 3 - 1000;
        case "extremes" -> i % 3 == 0 ? Integer.MAX_VALUE : i % 3 == 1 ? Integer.MIN_VALUE : 0;
        default -> r.nextInt();
      }));
      case INT64 -> list(n, i -> le(switch (shape) {
        case "constant", "one" -> Long.MAX_VALUE;
        case "sorted" -> 1_700_000_000_000L + i * 1000L;
        case "extremes" -> i % 3 == 0 ? Long.MAX_VALUE : i % 3 == 1 ? Long.MIN_VALUE : -1;
        default -> r.nextLong();
      }));
      // Raw bits, so NaN payloads and signalling NaNs survive exactly.
      case FLOAT -> list(n, i -> le(switch (shape) {
        case "constant", "one" -> 0x7FC0_0001; // quiet NaN with a payload
        case "sorted" -> Float.floatToRawIntBits(i * 0.25f);
        case "extremes" -> new int[] {0x7F80_0001, 0xFF80_0000, 0x7F7F_FFFF, 0x0000_0001, 0x8000_0000, 0xFFC1_2345}[i % 6];
        default -> r.nextInt();
      }));
      case DOUBLE -> list(n, i -> le(switch (shape) {
        case "constant", "one" -> 0x7FF8_0000_0000_0BADL;
        case "sorted" -> Double.doubleToRawLongBits(i * 0.5);
        case "extremes" -> new long[] {0x7FF0_0000_0000_0001L, 0xFFF0_0000_0000_0000L, Double.doubleToRawLongBits(Double.MAX_VALUE),
            1L, 0x8000_0000_0000_0000L, 0xFFF8_0000_DEAD_BEEFL}[i % 6];
        default -> r.nextLong();
      }));
      case INT96, FIXED_LEN_BYTE_ARRAY -> {
        int w = type == PhysicalType.INT96 ? 12 : typeLength;
        byte[] constant = new byte[w];
        java.util.Arrays.fill(constant, (byte) 0xFE);
        yield list(n, i -> switch (shape) {
          case "constant", "one" -> constant.clone();
          case "extremes" -> filled(w, i % 2 == 0 ? 0 : 0xFF);
          case "sorted" -> bigEndian(w, i);
          default -> randomBytes(r, w);
        });
      }
      case BYTE_ARRAY -> list(n, i -> switch (shape) {
        case "constant", "one" -> "constant string value".getBytes();
        case "extremes" -> i % 5 == 0 ? randomBytes(r, 5000 + r.nextInt(3000)) : i % 5 == 1 ? new byte[0] : randomBytes(r, 1);
        case "sorted" -> ("prefix/shared/" + (100000 + i)).getBytes(); // long common prefixes
        default -> randomBytes(r, r.nextInt(40));
      });
    };
  }

  static byte[] filled(int n, int b) {
    byte[] out = new byte[n];
    java.util.Arrays.fill(out, (byte) b);
    return out;
  }

  static byte[] bigEndian(int w, int v) {
    byte[] out = new byte[w];
    for (int i = 0; i < Math.min(4, w); i++) {
      out[w - 1 - i] = (byte) (v >>> (8 * i));
    }
    return out;
  }

  static byte[] randomBytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }
}
