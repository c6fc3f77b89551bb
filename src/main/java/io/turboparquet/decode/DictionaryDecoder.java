package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;

/**
 * PLAIN_DICTIONARY / RLE_DICTIONARY data pages: one byte of bit width, then hybrid-encoded indices
 * into the {@link Dictionary}. Indices are decoded a chunk at a time and then gathered; the gather
 * loop is chosen once per chunk, never per value.
 */
final class DictionaryDecoder implements ValuesDecoder {
  private static final int CHUNK = 1024;
  /** Up to this many bytes a chunk reserves k x the longest entry instead of summing its lengths. */
  private static final long RESERVE_WITHOUT_COUNTING = 1 << 16;
  private enum Gather { INT, LONG, FIXED, BINARY }

  private final String name;
  private final Dictionary dictionary;
  private final Gather gather;
  private final int width;
  private final RleBitPackedHybridDecoder indices = new RleBitPackedHybridDecoder();
  private final int[] scratch = new int[CHUNK];
  private int left;

  DictionaryDecoder(String encoding, PhysicalType type, Dictionary dictionary) {
    this.name = encoding + " " + type;
    this.dictionary = dictionary;
    this.width = dictionary.width();
    this.gather = switch (width) {
      case ValueSink.VARIABLE -> Gather.BINARY;
      case 4 -> Gather.INT;
      case 8 -> Gather.LONG;
      default -> Gather.FIXED;
    };
  }

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(name, page, offset, length, valueCount);
    if (length == 0) { // a page of only nulls may carry no index data at all
      if (valueCount > 0) {
        throw new DecodeException(name + " section is empty but should hold " + valueCount + " indices");
      }
      indices.init(page, offset, 0, 0);
    } else {
      int bitWidth = page.getByte(offset) & 0xFF;
      if (bitWidth > 32) {
        throw new DecodeException(name + " index bit width " + bitWidth + " is above 32");
      }
      indices.init(page, offset + 1, length - 1, bitWidth);
    }
    left = valueCount;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(name, n, left);
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      indices.readInts(scratch, 0, k);
      try {
        // Every gather indexes heap arrays with the indices before any unchecked copy (FIXED, whose
        // index x width may wrap, checks them first), so an index out of range stops here.
        switch (gather) {
          case INT -> gatherInts(sink, k);
          case LONG -> gatherLongs(sink, k);
          case FIXED -> gatherFixed(sink, k);
          case BINARY -> gatherBinary(sink, k);
        }
      } catch (IndexOutOfBoundsException e) {
        throw badIndex(k, e);
      }
      sink.addIds(scratch, k, dictionary); // in range: every gather indexed the dictionary with them
      done += k;
    }
    left -= n;
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(name, n, left);
    indices.skip(n);
    left -= n;
  }

  /** n times the longest entry: no index can select more. */
  @Override
  public long maxBytes(int n) {
    return (long) Math.min(n, left) * (width == ValueSink.VARIABLE ? dictionary.maxLength() : width);
  }

  /** The error for the first index of the chunk that is out of range. */
  private DecodeException badIndex(int k, IndexOutOfBoundsException cause) {
    int size = dictionary.size();
    for (int i = 0; i < k; i++) {
      if (Integer.compareUnsigned(scratch[i], size) >= 0) {
        return new DecodeException(name + " dictionary index " + Integer.toUnsignedString(scratch[i])
            + " is out of range for a dictionary of " + size + " values", cause);
      }
    }
    return new DecodeException(name + " dictionary gather failed: " + cause.getMessage(), cause);
  }

  private void gatherInts(ValueSink sink, int k) {
    int[] dict = dictionary.heapInts();
    int[] idx = scratch;
    long address = sink.reserveAddress(k);
    if (address != 0) {
      for (int i = 0; i < k; i++) {
        Memory.putInt(address + ((long) i << 2), dict[idx[i]]);
      }
    } else {
      ByteBuf out = sink.values();
      int at = sink.writeIndex();
      for (int i = 0; i < k; i++) {
        out.setIntLE(at + (i << 2), dict[idx[i]]);
      }
    }
    sink.advance(k);
  }

  private void gatherLongs(ValueSink sink, int k) {
    long[] dict = dictionary.heapLongs();
    int[] idx = scratch;
    long address = sink.reserveAddress(k);
    if (address != 0) {
      for (int i = 0; i < k; i++) {
        Memory.putLong(address + ((long) i << 3), dict[idx[i]]);
      }
    } else {
      ByteBuf out = sink.values();
      int at = sink.writeIndex();
      for (int i = 0; i < k; i++) {
        out.setLongLE(at + (i << 3), dict[idx[i]]);
      }
    }
    sink.advance(k);
  }

  /**
   * Other widths (INT96, FIXED_LEN_BYTE_ARRAY) index the dictionary's buffer by {@code index x
   * width}, which can wrap around 32 bits back into it: every index is checked first.
   */
  private void gatherFixed(ValueSink sink, int k) {
    int size = dictionary.size();
    int[] idx = scratch;
    for (int i = 0; i < k; i++) {
      if (Integer.compareUnsigned(idx[i], size) >= 0) {
        throw new IndexOutOfBoundsException("dictionary index " + idx[i]);
      }
    }
    ByteBuf out = sink.reserve(k);
    int at = sink.writeIndex();
    ByteBuf dict = dictionary.values();
    int w = width;
    for (int i = 0; i < k; i++) {
      out.setBytes(at + i * w, dict, idx[i] * w, w);
    }
    sink.advance(k);
  }

  /**
   * The hot loop for dictionary strings, with its cursors in locals. Indices were checked against
   * the dictionary's size and the offsets when it was built.
   */
  private static void gatherBinaryUnchecked(ValueSink sink, int[] idx, int k, long base, long limit,
      int[] offsets) {
    long data = sink.dataAddress();
    long ends = sink.endOffsetsAddress();
    int end = sink.dataLength();
    int written = 0;
    for (int i = 0; i < k; i++) {
      int e = idx[i];
      int start = offsets[e];
      int length = offsets[e + 1] - start;
      Memory.copyValue(base + start, data + written, length, limit);
      written += length;
      Memory.putInt(ends + ((long) i << 2), end + written);
    }
    sink.commitVariable(k, written);
  }

  /**
   * Short entries: each value is its slot's {@code S} longs (the entry zero-padded), written whole,
   * with no branch on its length; the next value overwrites the padding. One loop per slot size.
   * An index out of range fails on {@code lengths} before any slot is read.
   */
  private static void gatherSlots(ValueSink sink, int[] idx, int k, long[] slots, int[] lengths, int s) {
    long data = sink.dataAddress();
    long ends = sink.endOffsetsAddress();
    int end = sink.dataLength();
    int written = 0;
    switch (s) {
      case 1 -> {
        for (int i = 0; i < k; i++) {
          int e = idx[i];
          int length = lengths[e];
          Memory.putLong(data + written, slots[e]);
          written += length;
          Memory.putInt(ends + ((long) i << 2), end + written);
        }
      }
      case 2 -> {
        for (int i = 0; i < k; i++) {
          int e = idx[i];
          int length = lengths[e];
          long to = data + written;
          Memory.putLong(to, slots[2 * e]);
          Memory.putLong(to + 8, slots[2 * e + 1]);
          written += length;
          Memory.putInt(ends + ((long) i << 2), end + written);
        }
      }
      case 3 -> {
        for (int i = 0; i < k; i++) {
          int e = idx[i];
          int length = lengths[e];
          long to = data + written;
          Memory.putLong(to, slots[3 * e]);
          Memory.putLong(to + 8, slots[3 * e + 1]);
          Memory.putLong(to + 16, slots[3 * e + 2]);
          written += length;
          Memory.putInt(ends + ((long) i << 2), end + written);
        }
      }
      default -> { // 4 (Dictionary.MAX_SLOT_LONGS)
        for (int i = 0; i < k; i++) {
          int e = idx[i];
          int length = lengths[e];
          long to = data + written;
          int at = e * s;
          for (int j = 0; j < s; j++) {
            Memory.putLong(to + 8L * j, slots[at + j]);
          }
          written += length;
          Memory.putInt(ends + ((long) i << 2), end + written);
        }
      }
    }
    sink.commitVariable(k, written);
  }

  private void gatherBinary(ValueSink sink, int k) {
    long[] slots = dictionary.heapSlots();
    if (slots != null && Memory.ENABLED) {
      int s = dictionary.slotLongs();
      // Room for k of the longest entries, plus the padding the last slot writes past its value.
      sink.reserveVariable(k, (long) k * dictionary.maxLength() + 8 * s);
      if (sink.hasAddress()) {
        gatherSlots(sink, scratch, k, slots, dictionary.heapLengths(), s);
        return;
      }
    }
    int[] offsets = dictionary.heapOffsets();
    ByteBuf dict = dictionary.values();
    int[] idx = scratch;
    long total = (long) k * dictionary.maxLength();
    if (total > RESERVE_WITHOUT_COUNTING) { // long entries: reserve what these indices need
      total = 0;
      for (int i = 0; i < k; i++) {
        int e = idx[i];
        total += offsets[e + 1] - offsets[e];
      }
    }
    sink.reserveVariable(k, total); // all of it or an error: the unchecked copy below relies on it
    long base = Memory.address(dict);
    if (base != 0 && sink.hasAddress()) {
      gatherBinaryUnchecked(sink, idx, k, base, base + dict.capacity(), offsets);
    } else {
      for (int i = 0; i < k; i++) {
        int e = idx[i];
        int start = offsets[e];
        sink.appendBinary(dict, start, offsets[e + 1] - start);
      }
    }
  }
}
