package io.turboparquet.drill;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DrillBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import io.turboparquet.io.BufferSource;
import java.nio.ByteBuffer;
import org.apache.drill.exec.memory.AllocationManager;
import org.apache.drill.exec.memory.BaseAllocator;
import org.apache.drill.exec.memory.BufferAllocator;

/**
 * Direct buffers for the scan core from a Drill allocator, so that Drill accounts for (and checks
 * the release of) every byte the core uses. The memory is a {@link DrillBuf}, but the core gets it
 * as a standard netty buffer over the same memory: DrillBuf's little-endian accessors
 * ({@code getIntLE}, {@code setLongLE}, ...) byte-swap its native-order ones, which on a
 * little-endian machine makes them big-endian. Releasing the view releases the DrillBuf.
 */
final class DrillBufferSource implements BufferSource {
  private final BufferAllocator allocator;

  DrillBufferSource(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  @Override
  public ByteBuf buffer(int capacity) {
    DrillBuf memory = allocator.buffer(Math.max(capacity, 1));
    try {
      return new View(memory.nioBuffer(0, capacity), memory).clear();
    } catch (RuntimeException | Error e) {
      memory.release();
      throw e;
    }
  }

  /** What Drill's allocator charges: sizes under its chunk size rounded up to a power of two. */
  @Override
  public long cost(int capacity) {
    int size = Math.max(capacity, 1);
    return size < AllocationManager.chunkSize() ? BaseAllocator.nextPowerOfTwo(size) : size;
  }

  /** The DrillBuf under a buffer this source handed out, or null for any other buffer. */
  static DrillBuf memoryOf(ByteBuf buf) {
    return buf instanceof View view ? view.owner : null;
  }

  /** A netty direct buffer over a DrillBuf's memory; frees nothing itself, releases the DrillBuf at the end. */
  private static final class View extends UnpooledUnsafeDirectByteBuf {
    private final DrillBuf owner;

    View(ByteBuffer memory, DrillBuf owner) {
      super(UnpooledByteBufAllocator.DEFAULT, memory, memory.capacity());
      this.owner = owner;
    }

    @Override
    protected void freeDirect(ByteBuffer buffer) {
      // the DrillBuf owns the memory
    }

    @Override
    protected void deallocate() {
      super.deallocate();
      owner.release();
    }
  }
}
