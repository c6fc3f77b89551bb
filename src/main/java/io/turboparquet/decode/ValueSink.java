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
  private static final int MIN_CAPACITY = 256;

  private final BufferSource source;
  private final int width;
  private ByteBuf values;
  private ByteBuf offsets;
  private int position;
  private int dataLength;

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
    if (width == VARIABLE) {
      ensureOffsets(1);
      offsets.setIntLE(0, 0);
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
      values = source.buffer(MIN_CAPACITY);
    }
    return values;
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
    values = grow(values, (long) (position + n) * width, position * width);
    return values;
  }

  /** Fixed width: the byte index of the slot at the position. */
  public int writeIndex() {
    return position * width;
  }

  /** Fixed width: marks {@code n} reserved slots as written. */
  public void advance(int n) {
    position += n;
  }

  /** Fixed width: moves the position to slot {@code slot} (slots in between must be filled). */
  public void seek(int slot) {
    position = slot;
  }

  /** Writes {@code n} empty slots: zeroes (fixed width) or zero-length values (variable width). */
  public void fill(int n) {
    if (n <= 0) {
      return;
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

  /** Variable width: makes room for {@code n} more values and {@code bytes} more data bytes. */
  public void reserveVariable(int n, int bytes) {
    ensureOffsets(position + 1 + n);
    values = grow(values, (long) dataLength + bytes, dataLength);
  }

  /** Variable width: appends one value copied from {@code src[index, index + length)}. */
  public void appendBinary(ByteBuf src, int index, int length) {
    values = grow(values, (long) dataLength + length, dataLength);
    values.setBytes(dataLength, src, index, length);
    endValue(length);
  }

  /** Variable width: appends one value copied from {@code src[offset, offset + length)}. */
  public void appendBinary(byte[] src, int offset, int length) {
    values = grow(values, (long) dataLength + length, dataLength);
    values.setBytes(dataLength, src, offset, length);
    endValue(length);
  }

  private void endValue(int length) {
    dataLength += length;
    position++;
    if (offsets.capacity() < (position + 1) << 2) {
      ensureOffsets(position + 1);
    }
    offsets.setIntLE(position << 2, dataLength);
  }

  private void ensureOffsets(int entries) {
    offsets = grow(offsets, (long) entries << 2, (position + 1) << 2);
  }

  /** Returns {@code buf} or a larger copy of its first {@code used} bytes, releasing the old one. */
  private ByteBuf grow(ByteBuf buf, long needed, int used) {
    if (buf != null && buf.capacity() >= needed) {
      return buf;
    }
    if (needed > Integer.MAX_VALUE - 16) {
      throw new DecodeException("a batch of one column needs more than 2 GB: " + needed + " bytes");
    }
    long capacity = Math.max(MIN_CAPACITY, buf == null ? needed : Math.max(needed, 2L * buf.capacity()));
    ByteBuf bigger = source.buffer((int) Math.min(capacity, Integer.MAX_VALUE - 16));
    if (buf != null) {
      bigger.setBytes(0, buf, 0, Math.min(used, buf.capacity()));
      buf.release();
    }
    return bigger;
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
