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

  /**
   * An upper bound of the data bytes the next {@code n} values (at most the values left) add to a
   * variable-width sink, without consuming them; non-decreasing in {@code n}. Lets the column
   * reader end a batch before it passes its byte limit. Decoders whose bound is tight for small
   * {@code n} let batches fill up to the limit; {@link Long#MAX_VALUE} (the default) means unknown,
   * and the reader then takes a single record per batch once the limit is near.
   */
  default long maxBytes(int n) {
    return Long.MAX_VALUE;
  }
}
