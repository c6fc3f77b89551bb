package io.turboparquet.io;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link BufferSource} that counts what it hands out, so a test can prove that every buffer came
 * back and the CLI can report peak direct memory. Backed by its own unpooled netty allocator:
 * unpooled buffers are never recycled, so a released buffer stays released and the allocator's
 * metric is the exact number of live bytes.
 */
public final class TrackingBufferSource implements BufferSource {
  private static final int PRUNE_EVERY = 4096;

  private final UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true, true, true);
  private final List<ByteBuf> handedOut = new ArrayList<>();
  private long allocations;
  private long peakBytes;

  @Override
  public synchronized ByteBuf buffer(int capacity) {
    // netty answers 0 with a shared empty buffer that cannot be released; hand out a real one.
    int size = Math.max(1, capacity);
    ByteBuf buf = allocator.directBuffer(size, size);
    allocations++;
    if ((allocations % PRUNE_EVERY) == 0) {
      handedOut.removeIf(b -> b.refCnt() == 0);
    }
    handedOut.add(buf);
    peakBytes = Math.max(peakBytes, allocator.metric().usedDirectMemory());
    return buf;
  }

  public synchronized long allocations() {
    return allocations;
  }

  /** The most direct memory this source held at once. */
  public synchronized long peakBytes() {
    return peakBytes;
  }

  /** Buffers handed out and not yet released. */
  public synchronized int outstanding() {
    handedOut.removeIf(b -> b.refCnt() == 0);
    return handedOut.size();
  }

  /** Bytes held by buffers not yet released. */
  public long outstandingBytes() {
    return allocator.metric().usedDirectMemory();
  }
}
