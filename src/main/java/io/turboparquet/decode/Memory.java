package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;

/**
 * Unchecked access to direct memory for the decoders' innermost loops, where netty's per-call
 * reference-count and bounds checks cost more than the work. Callers check bounds once per bulk
 * operation; where a buffer has no memory address (heap buffers, big-endian machines) they fall
 * back to the checked ByteBuf methods (tests run both: {@code UncheckedAccessTest}).
 *
 * <p>Every unchecked access, and the check that makes it safe (file bytes are never trusted):
 * <ul>
 *   <li>Destinations are a {@link ValueSink}'s buffers after {@code reserve} /
 *       {@code reserveVariable}, which count in {@code long} and either make all the room asked
 *       for (plus {@link ValueSink#SLACK}) or throw: a size can never wrap into a small buffer.
 *   <li>{@code DictionaryDecoder} gathers read entries from heap arrays indexed by the decoded
 *       indices, so an index out of range fails before any write; fixed-width entries of other
 *       widths, whose offset {@code index x width} could wrap, check every index first. Slot
 *       gathers reserve {@code k x longest entry + one slot}; the byte-array gather reserves the
 *       indices' exact total, and reads whole longs only below the dictionary buffer's capacity
 *       (its offsets were checked against its bytes when it was built).
 *   <li>{@code PlainDecoders.Binary} reserves the rest of the section (plus {@link #SHORT_COPY})
 *       and checks each length against the section before its copy; {@link #copyShort} reads
 *       past a value only when the section's end is 48 bytes away.
 *   <li>{@code BitUnpacker}'s in-place unpacking reads groups whose bytes the run header proved
 *       to lie in the section, and 8 bytes past them only where the buffer has them.
 *   <li>{@code ValueSink.appendBinary} checks the source range itself; {@code ValueSink.addIds}
 *       writes ids below the capacity {@code idRoom} made for them.
 *   <li>{@code ValueSink.keepSlots} moves slots below the position, {@code keepBytes} bytes
 *       below the buffer's capacity: both check every slot first.
 * </ul>
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

  static byte getByte(long address) {
    return PlatformDependent.getByte(address);
  }

  static void putByte(long address, byte value) {
    PlatformDependent.putByte(address, value);
  }

  /**
   * Copies {@code length} bytes to a lower address, the ranges possibly overlapping. A short move is
   * a forward loop of longs, each read before the write that could reach it, since copyMemory's
   * fixed cost dominates a few bytes. It rounds the length up to whole longs when that is safe, so
   * that values of varying short lengths take the same path: the source has the bytes up to
   * {@code fromLimit}, and the move goes down by at least 8, so the bytes written past the value
   * are ones already read.
   */
  static void moveDown(long from, long to, int length, long fromLimit) {
    int rounded = (length + 7) & ~7;
    if (length > 64) {
      PlatformDependent.copyMemory(from, to, length);
      return;
    }
    int whole = from - to >= 8 && from + rounded <= fromLimit ? rounded : length & ~7;
    int k = 0;
    for (; k < whole; k += 8) {
      PlatformDependent.putLong(to + k, PlatformDependent.getLong(from + k));
    }
    for (; k < length; k++) {
      PlatformDependent.putByte(to + k, PlatformDependent.getByte(from + k));
    }
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
