package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.BufferSource;

/**
 * The decoded values of a dictionary page, in direct buffers, for dictionary-encoded data pages to
 * gather from. Fixed width: entry {@code i} is {@code values[i * width, (i + 1) * width)}.
 * BYTE_ARRAY: entry {@code i} is {@code values[offsets[i], offsets[i + 1])} with {@code size + 1}
 * int32 little-endian offsets. Owns its buffers until {@link #close()}.
 */
public final class Dictionary implements AutoCloseable {
  private final PhysicalType type;
  private final int width;
  private final int size;
  private ByteBuf values;
  private ByteBuf offsets;
  /** BYTE_ARRAY: the offsets again on the heap, so gathers cost no buffer calls per lookup. */
  private final int[] heapOffsets;
  /** Bytes of the longest entry. */
  private final int maxLength;
  /** 4- and 8-byte entries on the heap, made on first use, for the same reason. */
  private int[] heapInts;
  private long[] heapLongs;
  /** Short BYTE_ARRAY entries as zero-padded slots of {@link #slotLongs()} longs, made on first use. */
  private long[] heapSlots;
  private int[] heapLengths;

  /** Longest entry, in longs, that a short-string gather copies as whole longs. */
  static final int MAX_SLOT_LONGS = 4;
  /** Largest slot array (in longs) made for a dictionary: 2 MiB of heap. */
  private static final int MAX_SLOT_ARRAY = 1 << 18;

  private Dictionary(PhysicalType type, int width, int size, ByteBuf values, ByteBuf offsets, int[] heapOffsets) {
    this.type = type;
    this.width = width;
    this.size = size;
    this.values = values;
    this.offsets = offsets;
    this.heapOffsets = heapOffsets;
    int longest = Math.max(0, width); // 0 for BYTE_ARRAY (width VARIABLE) without entries, never negative
    if (heapOffsets != null) {
      for (int i = 0; i < size; i++) {
        longest = Math.max(longest, heapOffsets[i + 1] - heapOffsets[i]);
      }
    }
    this.maxLength = longest;
  }

  /**
   * Decodes the PLAIN-encoded dictionary page body {@code page[offset, offset + length)} holding
   * {@code numValues} entries of {@code type} ({@code typeLength} for FIXED_LEN_BYTE_ARRAY).
   */
  public static Dictionary read(ByteBuf page, int offset, int length, int numValues, PhysicalType type,
      int typeLength, BufferSource source) {
    if (numValues < 0) {
      throw new DecodeException("dictionary page of " + type + " has a negative value count " + numValues);
    }
    if (offset < 0 || length < 0 || (long) offset + length > page.capacity()) {
      throw new IndexOutOfBoundsException("dictionary page section [" + offset + ", +" + length
          + ") outside buffer of " + page.capacity() + " bytes");
    }
    return switch (type) {
      case BOOLEAN -> throw new DecodeException("dictionary page for a BOOLEAN column: BOOLEAN cannot be dictionary-encoded");
      case INT32, FLOAT, INT64, DOUBLE, INT96 -> readFixed(page, offset, length, numValues, type, type.fixedWidth(), source);
      case FIXED_LEN_BYTE_ARRAY -> {
        if (typeLength <= 0) {
          throw new DecodeException("FIXED_LEN_BYTE_ARRAY dictionary with type length " + typeLength);
        }
        yield readFixed(page, offset, length, numValues, type, typeLength, source);
      }
      case BYTE_ARRAY -> readBinary(page, offset, length, numValues, source);
    };
  }

  private static Dictionary readFixed(ByteBuf page, int offset, int length, int numValues, PhysicalType type,
      int width, BufferSource source) {
    long bytes = (long) numValues * width;
    if (bytes > length) {
      throw new DecodeException("PLAIN " + type + " dictionary page of " + length + " bytes is too short for "
          + numValues + " values of " + width + " bytes");
    }
    ByteBuf values = source.buffer(Math.max(1, (int) bytes)); // capacity 0 would be netty's unreleasable empty buffer
    values.setBytes(0, page, offset, (int) bytes);
    return new Dictionary(type, width, numValues, values, null, null);
  }

  private static Dictionary readBinary(ByteBuf page, int offset, int length, int numValues, BufferSource source) {
    if (numValues > length >>> 2) { // every entry needs at least its 4-byte length
      throw new DecodeException("PLAIN BYTE_ARRAY dictionary page of " + length + " bytes cannot hold "
          + numValues + " values");
    }
    int end = offset + length;
    int pos = offset;
    long total = 0;
    for (int i = 0; i < numValues; i++) { // validate all lengths before allocating
      int len = PlainDecoders.binaryLength(page, pos, end, "dictionary page");
      pos += 4 + len;
      total += len;
    }
    ByteBuf offsets = source.buffer(((numValues + 1) << 2));
    ByteBuf values;
    try {
      values = source.buffer((int) total + 8); // 8 spare bytes let short values be copied as longs
    } catch (RuntimeException | Error e) {
      offsets.release();
      throw e;
    }
    int[] heapOffsets = new int[numValues + 1];
    pos = offset;
    int at = 0;
    offsets.setIntLE(0, 0);
    for (int i = 0; i < numValues; i++) {
      int len = page.getIntLE(pos);
      values.setBytes(at, page, pos + 4, len);
      at += len;
      pos += 4 + len;
      offsets.setIntLE((i + 1) << 2, at);
      heapOffsets[i + 1] = at;
    }
    return new Dictionary(PhysicalType.BYTE_ARRAY, ValueSink.VARIABLE, numValues, values, offsets, heapOffsets);
  }

  public PhysicalType type() {
    return type;
  }

  /** Bytes per entry, or {@link ValueSink#VARIABLE} for BYTE_ARRAY. */
  public int width() {
    return width;
  }

  public int size() {
    return size;
  }

  /** Whether it still holds its entries: not {@link #close() closed} (a chunk's second dictionary page closes the first). */
  public boolean isOpen() {
    return values != null;
  }

  /** Bytes of the longest entry (the width for fixed-width dictionaries). */
  public int maxLength() {
    return maxLength;
  }

  /** The entries' bytes (see the class comment for the layout). */
  public ByteBuf values() {
    return values;
  }

  /** BYTE_ARRAY: {@code size + 1} int32 LE offsets into {@link #values()}; null for fixed width. */
  public ByteBuf offsets() {
    return offsets;
  }

  /** 4-byte entries as a heap array (do not modify). */
  int[] heapInts() {
    if (heapInts == null) {
      int[] a = new int[size];
      for (int i = 0; i < size; i++) {
        a[i] = values.getIntLE(i << 2);
      }
      heapInts = a;
    }
    return heapInts;
  }

  /** 8-byte entries as a heap array (do not modify). */
  long[] heapLongs() {
    if (heapLongs == null) {
      long[] a = new long[size];
      for (int i = 0; i < size; i++) {
        a[i] = values.getLongLE(i << 3);
      }
      heapLongs = a;
    }
    return heapLongs;
  }

  /** Longs per slot of {@link #heapSlots()}: the longest entry rounded up to whole longs, at least 1. */
  int slotLongs() {
    return Math.max(1, (maxLength + 7) >>> 3);
  }

  /**
   * BYTE_ARRAY entries of at most {@link #MAX_SLOT_LONGS} longs as fixed slots on the heap: entry
   * {@code i}'s bytes little-endian in {@code [i * slotLongs(), (i + 1) * slotLongs())}, zero
   * padded, so that a gather copies each value as the same few longs, without a branch on its
   * length. Null for fixed width, longer entries, or a dictionary too large for such a copy.
   */
  long[] heapSlots() {
    if (heapSlots == null && heapOffsets != null && slotLongs() <= MAX_SLOT_LONGS
        && (long) size * slotLongs() <= MAX_SLOT_ARRAY) {
      int s = slotLongs();
      long[] slots = new long[size * s];
      int[] lengths = new int[size];
      for (int i = 0; i < size; i++) {
        int start = heapOffsets[i];
        int length = heapOffsets[i + 1] - start;
        lengths[i] = length;
        for (int b = 0; b < length; b++) {
          slots[i * s + (b >>> 3)] |= (values.getByte(start + b) & 0xFFL) << (8 * (b & 7));
        }
      }
      heapLengths = lengths;
      heapSlots = slots;
    }
    return heapSlots;
  }

  /** Entry lengths, once {@link #heapSlots()} has returned slots. */
  int[] heapLengths() {
    return heapLengths;
  }

  /** BYTE_ARRAY: {@link #offsets()} as a heap array (do not modify); null for fixed width. */
  int[] heapOffsets() {
    return heapOffsets;
  }

  @Override
  public void close() {
    if (values != null) {
      values.release();
      values = null;
    }
    if (offsets != null) {
      offsets.release();
      offsets = null;
    }
  }
}
