package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.io.BufferSource;

/**
 * The decoded values of one column for one batch, in direct buffers from a {@link BufferSource}.
 *
 * <p>Fixed width ({@code width > 0}): value slot {@code i} occupies bytes {@code [i*width, (i+1)*width)}
 * of {@link #values()}, little-endian as Parquet stores them; BOOLEAN uses one byte (0 or 1) per
 * value. Variable width ({@code width == VARIABLE}): values are concatenated in {@link #values()} and
 * {@link #offsets()} holds {@code position + 1} int32 little-endian offsets, the first being 0.
 *
 * <p>{@link #position()} is the next slot to write. Decoders write {@code n} values at the position
 * and advance it; the column reader fills null slots with {@link #fill(int)} (zeroes, or empty
 * values). Buffers grow on demand and are reused across batches after {@link #reset()}; the sink
 * owns them until {@link #close()}. Not thread-safe: one sink per column reader.
 */
public final class ValueSink implements AutoCloseable {
  public static final int VARIABLE = -1;
  /** Bytes that unchecked variable-width writers may write past the values they append. */
  static final int SLACK = 8;
  /**
   * Hard cap on one column's values in one batch (bytes of data, or of fixed-width slots): a
   * netty buffer holds at most 2^31 - 1 bytes. A batch that needs more is refused with a clean
   * error; batch byte limits ({@code ScanOptions.Decode.batchBytes}) stay below it.
   */
  public static final long MAX_BYTES = Integer.MAX_VALUE - 16;
  private static final int MIN_CAPACITY = 256;

  private final BufferSource source;
  private final int width;
  private ByteBuf values;
  private ByteBuf offsets;
  // Unchecked addresses and capacities of the two buffers (address 0: use the ByteBuf methods).
  private long valuesAddress;
  private long offsetsAddress;
  private long valuesCapacity;
  private long offsetsCapacity;
  private int position;
  private int dataLength;
  /**
   * Dictionary ids of slots {@code [0, idCount)}, int32 little-endian, when kept
   * ({@link #keepDictionaryIds}): a filter judges each dictionary entry once and then each row by
   * its id. Only dictionary reads and empty slots add ids; any other write leaves the count behind
   * the position, and then none are valid.
   */
  private boolean keepIds;
  private ByteBuf ids;
  private int idCount;
  private Dictionary idDictionary;

  public ValueSink(BufferSource source, int width) {
    if (width <= 0 && width != VARIABLE) {
      throw new IllegalArgumentException("width must be positive or VARIABLE: " + width);
    }
    this.source = source;
    this.width = width;
    reset();
  }

  public int width() {
    return width;
  }

  public boolean isVariableWidth() {
    return width == VARIABLE;
  }

  /** Empties the sink for the next batch; keeps its buffers. */
  public void reset() {
    position = 0;
    dataLength = 0;
    idCount = 0;
    idDictionary = null;
    if (width == VARIABLE) {
      ensureOffsets(1);
      offsets.setIntLE(0, 0);
    }
  }

  /** Keeps the dictionary id of every value read from a dictionary from now on ({@link #idDictionary}). */
  public void keepDictionaryIds() {
    keepIds = true;
  }

  /**
   * The dictionary every slot's value was read from, when ids are kept, every slot has one
   * ({@link #ids()}; an empty slot's is 0) and the dictionary is still open, else null: values read
   * otherwise (a page that is not dictionary-encoded, rows carried over, slots moved) have none.
   */
  public Dictionary idDictionary() {
    return keepIds && idCount == position && idDictionary != null && idDictionary.isOpen() ? idDictionary : null;
  }

  /** The ids of the slots (int32 little-endian), while {@link #idDictionary()} is not null. */
  public ByteBuf ids() {
    return ids;
  }

  /** Records the ids of the {@code k} values just written from {@code dictionary}. */
  void addIds(int[] from, int k, Dictionary dictionary) {
    if (keepIds && idCount == position - k && (idDictionary == null || idDictionary == dictionary)) {
      idRoom(k);
      long at = Memory.address(ids);
      if (at != 0) {
        at += (long) idCount << 2;
        for (int i = 0; i < k; i++) {
          Memory.putInt(at + ((long) i << 2), from[i]);
        }
      } else {
        for (int i = 0; i < k; i++) {
          ids.setIntLE((idCount + i) << 2, from[i]);
        }
      }
      idCount += k;
      idDictionary = dictionary;
    }
  }

  /** Room for {@code k} more ids (checked in long: the slots' own buffers bound their count). */
  private void idRoom(int k) {
    long needed = ((long) idCount + k) << 2;
    if (ids == null || needed > ids.capacity()) {
      ids = grow(ids, Math.max(needed, 4096), idCount << 2);
    }
  }

  /** Index of the next value slot. */
  public int position() {
    return position;
  }

  /** Bytes of variable-width data written so far. */
  public int dataLength() {
    return dataLength;
  }

  /** Fixed width: the values buffer; valid until the next call that may grow it. */
  public ByteBuf values() {
    if (values == null) {
      setValues(source.buffer(MIN_CAPACITY));
    }
    return values;
  }

  /**
   * Fixed width: hands the values buffer (with {@link #position()} values) to the caller, who
   * releases it; the sink allocates a new one for the next batch. Lets an engine whose vectors have
   * the same layout take the bytes without copying them.
   */
  public ByteBuf detachValues() {
    if (width == VARIABLE) {
      throw new IllegalStateException("variable-width values stay with the sink");
    }
    ByteBuf out = values();
    values = null;
    valuesAddress = 0;
    valuesCapacity = 0;
    return out;
  }

  /** Variable width: the offsets buffer ({@code position + 1} entries). */
  public ByteBuf offsets() {
    return offsets;
  }

  // ---- fixed width ----------------------------------------------------------------------------

  /**
   * Fixed width: makes room for {@code n} values at the position and returns the buffer to write
   * them into, starting at byte {@link #writeIndex()}. Call {@link #advance(int)} afterwards.
   */
  public ByteBuf reserve(int n) {
    if (values == null || ((long) position + n) * width > valuesCapacity) { // null: nothing decoded yet, even for n = 0
      setValues(grow(values, ((long) position + n) * width, position * width));
    }
    return values;
  }

  /**
   * Fixed width: like {@link #reserve(int)}, but returns the memory address of the slot at the
   * position for unchecked writes of n values, or 0 when the buffer must be written through its
   * methods. Call {@link #advance(int)} afterwards.
   */
  long reserveAddress(int n) {
    reserve(n);
    return valuesAddress == 0 ? 0 : valuesAddress + (long) position * width;
  }

  /** Fixed width: the byte index of the slot at the position. */
  public int writeIndex() {
    return position * width;
  }

  /** Fixed width: marks {@code n} reserved slots as written. */
  public void advance(int n) {
    position += n;
  }

  /** Writes {@code n} empty slots: zeroes (fixed width) or zero-length values (variable width). */
  public void fill(int n) {
    if (n <= 0) {
      return;
    }
    if (keepIds && idCount == position) {
      idRoom(n);
      ids.setZero(idCount << 2, n << 2);
      idCount += n;
    }
    if (width == VARIABLE) {
      ensureOffsets(position + 1 + n);
      for (int i = 1; i <= n; i++) {
        offsets.setIntLE((position + i) << 2, dataLength);
      }
    } else {
      reserve(n).setZero(position * width, n * width);
    }
    position += n;
  }

  // ---- variable width -------------------------------------------------------------------------

  /**
   * Variable width: makes room for {@code n} more values and {@code bytes} more data bytes (plus
   * {@link #SLACK}). Unchecked writers rely on this: it either reserves all of it or throws, so
   * a count in {@code long} never wraps into a buffer smaller than the writes it guards.
   */
  public void reserveVariable(int n, long bytes) {
    if (bytes < 0) {
      throw new DecodeException("negative value bytes " + bytes);
    }
    ensureOffsets((long) position + 1 + n);
    ensureData(bytes + SLACK);
  }

  /** Variable width: appends one value copied from {@code src[index, index + length)}. */
  public void appendBinary(ByteBuf src, int index, int length) {
    ensureData(length);
    long from;
    if (valuesAddress != 0 && (from = Memory.address(src)) != 0) {
      if (index < 0 || length < 0 || (long) index + length > src.capacity()) {
        throw new IndexOutOfBoundsException("value [" + index + ", +" + length + ") outside a buffer of "
            + src.capacity());
      }
      Memory.copy(from + index, valuesAddress + dataLength, length);
    } else {
      values.setBytes(dataLength, src, index, length);
    }
    endValue(length);
  }

  /**
   * Variable width, unchecked bulk writing: after {@link #reserveVariable(int, int)} for n values
   * of {@code bytes} bytes, the decoder writes the values' bytes from {@link #dataAddress()} on
   * (it may write up to {@link #SLACK} bytes past their end) and their end offsets, as int32
   * relative to the start of the data, from {@link #endOffsetsAddress()} on, keeping its cursor in
   * local variables, then calls {@link #commitVariable(int, int)}. Only valid while
   * {@link #hasAddress()}.
   */
  long dataAddress() {
    return valuesAddress + dataLength;
  }

  /** Address of the offset entry that ends the next value; see {@link #dataAddress()}. */
  long endOffsetsAddress() {
    return offsetsAddress + ((long) (position + 1) << 2);
  }

  /** Marks n values of {@code bytes} bytes, written through the addresses, as appended. */
  void commitVariable(int n, int bytes) {
    position += n;
    dataLength += bytes;
  }

  /** Variable width: appends one value copied from {@code src[offset, offset + length)}. */
  public void appendBinary(byte[] src, int offset, int length) {
    ensureData(length);
    values.setBytes(dataLength, src, offset, length);
    endValue(length);
  }

  /** Whether this sink's buffers take unchecked writes. */
  boolean hasAddress() {
    return valuesAddress != 0 && offsetsAddress != 0;
  }

  private void endValue(int length) {
    dataLength += length;
    position++;
    if (offsetsCapacity < (long) (position + 1) << 2) {
      ensureOffsets(position + 1);
    }
    if (offsetsAddress != 0) {
      Memory.putInt(offsetsAddress + ((long) position << 2), dataLength);
    } else {
      offsets.setIntLE(position << 2, dataLength);
    }
  }

  private void ensureData(long more) {
    if ((long) dataLength + more > valuesCapacity) {
      if (dataLength == 0 && values != null) {
        // Nothing to keep: free the old buffer first, so a huge batch never holds both.
        values.release();
        values = null;
        valuesAddress = 0;
        valuesCapacity = 0;
      }
      setValues(grow(values, (long) dataLength + more, dataLength));
    }
  }

  private void ensureOffsets(long entries) {
    if ((entries << 2) > offsetsCapacity) {
      offsets = grow(offsets, entries << 2, (position + 1) << 2);
      offsetsAddress = Memory.address(offsets);
      offsetsCapacity = offsets.capacity();
    }
  }

  private void setValues(ByteBuf buf) {
    values = buf;
    valuesAddress = Memory.address(buf);
    valuesCapacity = buf.capacity();
  }

  /** Returns {@code buf} or a larger copy of its first {@code used} bytes, releasing the old one. */
  private ByteBuf grow(ByteBuf buf, long needed, int used) {
    if (buf != null && buf.capacity() >= needed) {
      return buf;
    }
    if (needed > MAX_BYTES) {
      throw new DecodeException("a batch of one column needs " + needed + " bytes, more than the " + MAX_BYTES
          + " one buffer holds");
    }
    // Doubling, but never more than 256 MiB past what is needed: batches of huge values stay near their size.
    long capacity = Math.max(MIN_CAPACITY, buf == null ? needed
        : Math.max(needed, Math.min(2L * buf.capacity(), needed + (256L << 20))));
    ByteBuf bigger = source.buffer((int) Math.min(capacity, MAX_BYTES));
    if (buf != null) {
      bigger.setBytes(0, buf, 0, Math.min(used, buf.capacity()));
      buf.release();
    }
    return bigger;
  }

  // ---- batch byte limits and carry-over -----------------------------------------------------

  /** Bytes of values written so far: data bytes (variable width) or value slots' bytes (fixed width). */
  public long byteSize() {
    return width == VARIABLE ? dataLength : (long) position * width;
  }

  /** Bytes that slots {@code [0, slot)} hold: data bytes (variable width) or slots' bytes (fixed width). */
  public long byteSizeAt(int slot) {
    return width == VARIABLE ? offsets.getIntLE(slot << 2) : (long) slot * width;
  }

  /** Drops every slot from {@code slot} on (after {@link #appendFrom} has copied them elsewhere). */
  public void truncate(int slot) {
    if (slot < 0 || slot > position) {
      throw new IllegalArgumentException("truncate to " + slot + " of " + position + " slots");
    }
    if (width == VARIABLE) {
      dataLength = offsets.getIntLE(slot << 2);
    }
    position = slot;
    idCount = Math.min(idCount, slot);
  }

  /**
   * Keeps only slots {@code slots[0..n)} (ascending, below the position), moved to the front in
   * order, in place: slot {@code i} is written after every slot at or below it was read.
   */
  public void keepSlots(int[] slots, int n) {
    checkSlots(slots, n, position);
    idCount = 0;
    idDictionary = null;
    if (width == VARIABLE) {
      keepVariable(slots, n);
    } else if (valuesAddress == 0) {
      for (int i = 0; i < n; i++) {
        values.setBytes(i * width, values, slots[i] * width, width);
      }
    } else {
      long at = valuesAddress;
      switch (width) {
        case 1 -> {
          for (int i = 0; i < n; i++) {
            Memory.putByte(at + i, Memory.getByte(at + slots[i]));
          }
        }
        case 4 -> {
          for (int i = 0; i < n; i++) {
            Memory.putInt(at + 4L * i, Memory.getInt(at + 4L * slots[i]));
          }
        }
        case 8 -> {
          for (int i = 0; i < n; i++) {
            Memory.putLong(at + 8L * i, Memory.getLong(at + 8L * slots[i]));
          }
        }
        default -> {
          for (int i = 0; i < n; i++) {
            Memory.moveDown(at + (long) width * slots[i], at + (long) width * i, width, at + valuesCapacity);
          }
        }
      }
    }
    position = n;
  }

  /**
   * Slot by slot, without looking for runs: kept slots come in runs of a row or two under a filter
   * that keeps half the rows, and a search for runs costs more than it saves. The offset written
   * for slot {@code i + 1} is at or below the next slot's, read already, or unchanged.
   */
  private void keepVariable(int[] slots, int n) {
    int out = 0;
    long limit = valuesAddress + valuesCapacity;
    for (int i = 0; i < n; i++) {
      int slot = slots[i];
      int start = offset(slot);
      int bytes = offset(slot + 1) - start;
      if (out != start) {
        if (valuesAddress != 0) {
          Memory.moveDown(valuesAddress + start, valuesAddress + out, bytes, limit);
        } else {
          values.setBytes(out, values, start, bytes);
        }
      }
      out += bytes;
      setOffset(i + 1, out);
    }
    dataLength = out;
  }

  /**
   * {@link #keepSlots} for a buffer of one byte per slot (validity, definition levels) of more than
   * the last slot kept: moves the kept bytes to its front and returns how many of them are not zero.
   */
  public static int keepBytes(ByteBuf perSlot, int[] slots, int n) {
    checkSlots(slots, n, perSlot.capacity());
    long at = Memory.address(perSlot);
    int nonZero = 0;
    for (int i = 0; i < n; i++) {
      byte b = at != 0 ? Memory.getByte(at + slots[i]) : perSlot.getByte(slots[i]);
      if (at != 0) {
        Memory.putByte(at + i, b);
      } else {
        perSlot.setByte(i, b);
      }
      nonZero += b != 0 ? 1 : 0;
    }
    return nonZero;
  }

  /** Checks that slots {@code [0, n)} ascend from 0 up and stay below {@code limit}, before unchecked moves. */
  private static void checkSlots(int[] slots, int n, int limit) {
    if (n < 0 || n > slots.length) {
      throw new IllegalArgumentException(n + " slots of " + slots.length);
    }
    int previous = -1;
    for (int i = 0; i < n; i++) {
      int slot = slots[i];
      if (slot <= previous || slot >= limit) {
        throw new IllegalArgumentException("slot " + slot + " after " + previous + ", of " + limit);
      }
      previous = slot;
    }
  }

  private int offset(int slot) {
    return offsetsAddress != 0 ? Memory.getInt(offsetsAddress + ((long) slot << 2)) : offsets.getIntLE(slot << 2);
  }

  private void setOffset(int slot, int offset) {
    if (offsetsAddress != 0) {
      Memory.putInt(offsetsAddress + ((long) slot << 2), offset);
    } else {
      offsets.setIntLE(slot << 2, offset);
    }
  }

  /** Appends slots {@code [from, to)} of {@code other} (same width) at the position, in bulk. */
  public void appendFrom(ValueSink other, int from, int to) {
    if (other.width != width || from < 0 || from > to || to > other.position) {
      throw new IllegalArgumentException("slots [" + from + ", " + to + ") of a sink of " + other.position
          + " slots, width " + other.width + " into width " + width);
    }
    int n = to - from;
    if (n == 0) {
      return;
    }
    if (width != VARIABLE) {
      ByteBuf out = reserve(n);
      out.setBytes(writeIndex(), other.values, from * width, n * width);
      position += n;
      return;
    }
    int start = other.offsets.getIntLE(from << 2);
    int bytes = other.offsets.getIntLE(to << 2) - start;
    reserveVariable(n, bytes);
    if (bytes > 0) { // a sink of only empty values may have no data buffer
      values.setBytes(dataLength, other.values, start, bytes);
    }
    int shift = dataLength - start;
    for (int i = 1; i <= n; i++) {
      offsets.setIntLE((position + i) << 2, other.offsets.getIntLE((from + i) << 2) + shift);
    }
    position += n;
    dataLength += bytes;
  }

  @Override
  public void close() {
    if (ids != null) {
      ids.release();
      ids = null;
    }
    if (values != null) {
      values.release();
      values = null;
    }
    if (offsets != null) {
      offsets.release();
      offsets = null;
    }
    valuesAddress = offsetsAddress = 0;
    valuesCapacity = offsetsCapacity = 0;
  }
}
