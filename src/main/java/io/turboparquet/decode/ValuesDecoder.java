package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;

/**
 * Decodes the values section of one data page, in bulk, into a {@link ValueSink}. One
 * implementation per encoding (and physical type where that matters); the scan calls
 * {@link #init} once per page and then {@link #read} / {@link #skip} for runs of non-null values.
 *
 * <p>Implementations throw {@link DecodeException} (or an {@link IndexOutOfBoundsException} from the
 * buffer) on bytes that contradict the encoding; the column reader adds file, row group, column and
 * page context.
 */
public interface ValuesDecoder {
  /**
   * Positions the decoder on {@code page[offset, offset + length)}, which encodes {@code valueCount}
   * non-null values.
   */
  void init(ByteBuf page, int offset, int length, int valueCount);

  /** Decodes the next {@code n} values into {@code sink} at its position, advancing it by n. */
  void read(ValueSink sink, int n);

  /** Skips the next {@code n} values. */
  void skip(int n);
}
