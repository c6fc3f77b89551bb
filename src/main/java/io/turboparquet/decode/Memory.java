package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;

/**
 * Unchecked access to direct memory for the decoders' innermost loops, where netty's per-call
 * reference-count and bounds checks cost more than the work. Callers check bounds once per bulk
 * operation; where a buffer has no memory address (heap buffers, big-endian machines) they fall
 * back to the checked ByteBuf methods.
 */
final class Memory {
  /** Unsafe is there and the machine is little-endian like Parquet. */
  static final boolean ENABLED = PlatformDependent.hasUnsafe() && !PlatformDependent.BIG_ENDIAN_NATIVE_ORDER;

  private Memory() {}

  /** The buffer's base address for unchecked access, or 0 when it must be used through its methods. */
  static long address(ByteBuf buf) {
    return ENABLED && buf.hasMemoryAddress() ? buf.memoryAddress() : 0L;
  }

  static void putInt(long address, int value) {
    PlatformDependent.putInt(address, value);
  }

  static void putLong(long address, long value) {
    PlatformDependent.putLong(address, value);
  }

  static long getLong(long address) {
    return PlatformDependent.getLong(address);
  }

  static int getInt(long address) {
    return PlatformDependent.getInt(address);
  }

  static void copy(long from, long to, long length) {
    PlatformDependent.copyMemory(from, to, length);
  }

  /** Bytes {@link #copyShort} copies. */
  static final int SHORT_COPY = 48;

  /**
   * Copies {@link #SHORT_COPY} bytes as six longs, whatever the value's length: for values of
   * varying short lengths this costs less than a loop whose trip count the CPU mispredicts. Both
   * sides must have the room.
   */
  static void copyShort(long from, long to) {
    PlatformDependent.putLong(to, PlatformDependent.getLong(from));
    PlatformDependent.putLong(to + 8, PlatformDependent.getLong(from + 8));
    PlatformDependent.putLong(to + 16, PlatformDependent.getLong(from + 16));
    PlatformDependent.putLong(to + 24, PlatformDependent.getLong(from + 24));
    PlatformDependent.putLong(to + 32, PlatformDependent.getLong(from + 32));
    PlatformDependent.putLong(to + 40, PlatformDependent.getLong(from + 40));
  }

  /**
   * Copies one short value as whole longs when the source has room up to {@code fromLimit}
   * (copyMemory's fixed cost dominates values of a few bytes). Writes up to 7 bytes past the
   * value: the destination must have {@link ValueSink#SLACK} spare bytes.
   */
  static void copyValue(long from, long to, int length, long fromLimit) {
    int rounded = (length + 7) & ~7;
    if (rounded <= 64 && from + rounded <= fromLimit) {
      for (int i = 0; i < rounded; i += 8) {
        PlatformDependent.putLong(to + i, PlatformDependent.getLong(from + i));
      }
    } else {
      PlatformDependent.copyMemory(from, to, length);
    }
  }
}
