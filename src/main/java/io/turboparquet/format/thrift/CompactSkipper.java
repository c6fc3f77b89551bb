package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BINARY;
import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_FALSE;
import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.CompactReader.BYTE;
import static io.turboparquet.format.thrift.CompactReader.DOUBLE;
import static io.turboparquet.format.thrift.CompactReader.I16;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.I64;
import static io.turboparquet.format.thrift.CompactReader.LIST;
import static io.turboparquet.format.thrift.CompactReader.MAP;
import static io.turboparquet.format.thrift.CompactReader.MAX_DEPTH;
import static io.turboparquet.format.thrift.CompactReader.SET;
import static io.turboparquet.format.thrift.CompactReader.STOP;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Skips a compact-protocol value in a byte array: static methods over a local position, no
 * objects, no exceptions. It accepts only what {@link CompactReader#skip} accepts (same length,
 * count, depth and field-id checks, or stricter) and answers {@link #FAIL} for everything else,
 * including long varints near the end and whatever is merely unusual; the caller then walks the
 * same bytes with the checked reader, which either accepts them too or names what is wrong.
 * Unprojected column chunks, statistics and other unwanted fields of a footer go through here.
 */
final class CompactSkipper {
  /** Not skipped here; let the checked reader look. */
  static final int FAIL = -1;

  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long CONTINUATION_BITS = 0x8080808080808080L;

  private CompactSkipper() {}

  /**
   * Position after the value of wire type {@code type} that starts at {@code b[p]}, reading no
   * further than {@code limit}; {@link #FAIL} when the checked reader should look instead.
   */
  static int skip(byte[] b, int p, int limit, int type, int maxLength) {
    return value(b, p, limit, type, maxLength, 0);
  }

  private static int value(byte[] b, int p, int limit, int type, int maxLength, int depth) {
    return switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE -> p; // the value was in the field header
      case BYTE -> p < limit ? p + 1 : FAIL;
      case I16, I32, I64 -> varint(b, p, limit);
      case DOUBLE -> limit - p >= 8 && maxLength >= 8 ? p + 8 : FAIL;
      case BINARY -> binary(b, p, limit, maxLength);
      case LIST, SET -> list(b, p, limit, maxLength, depth);
      case MAP -> map(b, p, limit, maxLength, depth);
      case STRUCT -> struct(b, p, limit, maxLength, depth);
      default -> FAIL;
    };
  }

  /** Fields up to and including the STOP byte, checking field ids as {@link CompactReader#readField} does. */
  private static int struct(byte[] b, int p, int limit, int maxLength, int depth) {
    return fields(b, p, limit, maxLength, depth, 0);
  }

  /**
   * The rest of a struct at nesting {@code depth} (0: the value {@link #skip} was called for),
   * whose fields before {@code b[p]} ended with id {@code lastId}: up to and including its STOP.
   */
  static int fields(byte[] b, int p, int limit, int maxLength, int depth, int lastId) {
    if (depth >= MAX_DEPTH - 1) {
      return FAIL;
    }
    while (p < limit) {
      if (limit - p >= 8) {
        // the common field, header and value in one 8-byte read
        long w = (long) LONG_LE.get(b, p);
        int header = (int) w & 0xff;
        int type = header & 0x0f;
        int delta = header >>> 4;
        if (type == STOP) {
          return p + 1;
        }
        if (delta != 0) {
          if (type >= I16 && type <= I64) {
            long stops = ~w & 0x8080808080808000L;
            if (stops != 0) {
              lastId += delta;
              if (lastId > Short.MAX_VALUE) {
                return FAIL;
              }
              p += (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
              continue;
            }
          } else if (type == BINARY && (w & 0x8000) == 0) {
            int n = (int) (w >>> 8) & 0x7f;
            lastId += delta;
            if (lastId > Short.MAX_VALUE || n > maxLength) {
              return FAIL;
            }
            p += 2 + n;
            if (p > limit) {
              return FAIL;
            }
            continue;
          }
        }
      }
      int header = b[p++] & 0xff;
      int type = header & 0x0f;
      if (type == STOP) {
        return p;
      }
      int delta = header >>> 4;
      if (delta != 0) {
        lastId += delta;
        if (lastId > Short.MAX_VALUE) {
          return FAIL;
        }
      } else {
        // long form: a zigzag i16 that must be a valid, non-negative id
        long v = varint32(b, p, limit);
        if (v < 0) {
          return FAIL;
        }
        p = (int) (v >>> 32);
        int n = (int) v;
        lastId = (n >>> 1) ^ -(n & 1);
        if (lastId < 0 || lastId > Short.MAX_VALUE) {
          return FAIL;
        }
      }
      p = switch (type) {
        case BOOLEAN_TRUE, BOOLEAN_FALSE -> p;
        case I16, I32, I64 -> varint(b, p, limit);
        case BINARY -> binary(b, p, limit, maxLength);
        default -> value(b, p, limit, type, maxLength, depth + 1);
      };
      if (p < 0) {
        return FAIL;
      }
    }
    return FAIL;
  }

  private static int list(byte[] b, int p, int limit, int maxLength, int depth) {
    if (depth >= MAX_DEPTH - 1 || p >= limit) {
      return FAIL;
    }
    int header = b[p++] & 0xff;
    int size = header >>> 4;
    if (size == 15) {
      long v = varint32(b, p, limit);
      if (v < 0) {
        return FAIL;
      }
      p = (int) (v >>> 32);
      size = (int) v;
    }
    if (size < 0 || size > limit - p) {
      return FAIL;
    }
    int type = header & 0x0f;
    switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE, BYTE -> {
        return p + size; // one byte each, and size <= bytes left
      }
      case I16, I32, I64 -> {
        for (int i = 0; i < size && p >= 0; i++) {
          p = varint(b, p, limit);
        }
        return p;
      }
      case BINARY -> {
        for (int i = 0; i < size && p >= 0; i++) {
          p = binary(b, p, limit, maxLength);
        }
        return p;
      }
      case STRUCT -> {
        for (int i = 0; i < size && p >= 0; i++) {
          p = struct(b, p, limit, maxLength, depth + 1);
        }
        return p;
      }
      default -> {
        for (int i = 0; i < size && p >= 0; i++) {
          p = value(b, p, limit, type, maxLength, depth + 1);
        }
        return p;
      }
    }
  }

  private static int map(byte[] b, int p, int limit, int maxLength, int depth) {
    if (depth >= MAX_DEPTH - 1) {
      return FAIL;
    }
    long v = varint32(b, p, limit);
    if (v < 0) {
      return FAIL;
    }
    p = (int) (v >>> 32);
    int size = (int) v;
    if (size < 0 || size > (limit - p) / 2) {
      return FAIL;
    }
    if (size == 0) {
      return p;
    }
    if (p >= limit) {
      return FAIL;
    }
    int kinds = b[p++] & 0xff;
    for (int i = 0; i < size && p >= 0; i++) {
      p = element(b, p, limit, kinds >>> 4, maxLength, depth + 1);
      if (p >= 0) {
        p = element(b, p, limit, kinds & 0x0f, maxLength, depth + 1);
      }
    }
    return p;
  }

  /** Inside a map a bool is a whole byte. */
  private static int element(byte[] b, int p, int limit, int type, int maxLength, int depth) {
    if (type == BOOLEAN_TRUE || type == BOOLEAN_FALSE) {
      return p < limit ? p + 1 : FAIL;
    }
    return value(b, p, limit, type, maxLength, depth);
  }

  private static int binary(byte[] b, int p, int limit, int maxLength) {
    long v = varint32(b, p, limit);
    if (v < 0) {
      return FAIL;
    }
    p = (int) (v >>> 32);
    int n = (int) v;
    if (n < 0 || n > limit - p || n > maxLength) {
      return FAIL;
    }
    return p + n;
  }

  /**
   * Skips a varint of at most 10 bytes (as the checked reader does). Eight bytes at once: the
   * first byte without its continuation bit ends it.
   */
  private static int varint(byte[] b, int p, int limit) {
    if (limit - p >= 8) {
      long stops = ~(long) LONG_LE.get(b, p) & CONTINUATION_BITS;
      if (stops != 0) {
        return p + (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
      }
    }
    for (int end = Math.min(limit, p + 10); p < end; ) {
      if (b[p++] >= 0) {
        return p;
      }
    }
    return FAIL;
  }

  /**
   * A varint of at most 5 bytes decoded as {@link CompactReader} decodes it: {@code position << 32 |
   * value}, or -1 when it runs past {@code limit} or is longer.
   */
  private static long varint32(byte[] b, int p, int limit) {
    int result = 0;
    for (int shift = 0; shift < 35 && p < limit; shift += 7) {
      int x = b[p++];
      result |= (x & 0x7f) << shift;
      if (x >= 0) {
        return (long) p << 32 | (result & 0xffffffffL);
      }
    }
    return -1;
  }
}
