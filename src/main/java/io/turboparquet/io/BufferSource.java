package io.turboparquet.io;

import io.netty.buffer.ByteBuf;

/**
 * Where the core gets its direct buffers. Inside Drill this is the operator's allocator (DrillBuf
 * is a netty ByteBuf); in the CLI and tests a {@link TrackingBufferSource}. Every buffer handed
 * out must eventually be released by whoever owns it.
 */
@FunctionalInterface
public interface BufferSource {
  /** A direct buffer with at least {@code capacity} bytes, writer and reader index at 0. */
  ByteBuf buffer(int capacity);

  /**
   * The bytes a buffer of {@code capacity} bytes takes from this source: more than {@code capacity}
   * where the source rounds sizes up (Drill's allocator rounds every buffer under 16 MiB up to a
   * power of two), so that a reader can choose sizes that waste little.
   */
  default long cost(int capacity) {
    return capacity;
  }
}
