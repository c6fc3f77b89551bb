package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which buffer requests of a vectored read get the parts' own buffers. */
class VectoredViewsTest {
  private static final int MIB = 1 << 20;
  private final List<ByteBuf> buffers = new ArrayList<>();

  /** Parts at [4, +1 MiB), [4 + 1 MiB, +300,000), [2 MiB, +1 MiB), [3 MiB, +100,000). */
  private List<FetchPart> parts() {
    long[][] ranges = {{4, MIB}, {4 + MIB, 300_000}, {2 * MIB, MIB}, {3 * MIB, 100_000}};
    List<FetchPart> parts = new ArrayList<>();
    for (long[] r : ranges) {
      ByteBuf buffer = Unpooled.directBuffer((int) r[1], (int) r[1]);
      buffers.add(buffer);
      parts.add(new FetchPart(null, buffer, r[0], (int) r[1]));
    }
    return parts;
  }

  @AfterEach
  void release() {
    buffers.forEach(ByteBuf::release);
  }

  /** Whether {@code view} writes into part {@code i}'s buffer. */
  private boolean isPartsBuffer(ByteBuffer view, int i) {
    view.put(0, (byte) 0x5A);
    return buffers.get(i).getByte(0) == 0x5A;
  }

  @Test
  void requestsForEachRangeInOrderGetThePartsBuffers() {
    RowGroupFetch.Views views = new RowGroupFetch.Views(parts());
    int[] lengths = {MIB, 300_000, MIB, 100_000};
    for (int i = 0; i < lengths.length; i++) {
      ByteBuffer view = views.next(lengths[i]);
      assertEquals(lengths[i], view.remaining());
      assertEquals(true, isPartsBuffer(view, i), "request " + i);
    }
    assertNull(views.next(8), "no part left");
  }

  /**
   * A checksummed local file asks for its checksum ranges, then for the data ranges rounded to 512
   * bytes: the fifth request has the first part's length but is the third range's. No request gets
   * a part's buffer once one was not the next part's.
   */
  @Test
  void noViewAfterARequestThatIsNotTheNextPartsAsAChecksummedFileMakes() {
    RowGroupFetch.Views views = new RowGroupFetch.Views(parts());
    for (int length : new int[] {10_536, 8_976, 1_049_088, 300_032, MIB, 100_352}) {
      assertNull(views.next(length), "request of " + length);
    }
  }

  @Test
  void requestsFromOtherThreadsOrAfterTheCallGetBuffersOfTheirOwn() throws InterruptedException {
    RowGroupFetch.Views views = new RowGroupFetch.Views(parts());
    AtomicReference<ByteBuffer> fromPool = new AtomicReference<>(ByteBuffer.allocate(1));
    Thread pool = new Thread(() -> fromPool.set(views.next(MIB)));
    pool.start();
    pool.join();
    assertNull(fromPool.get(), "a request from another thread");
    assertNull(views.next(MIB), "the calling thread's, after a request that was not in order");

    RowGroupFetch.Views ended = new RowGroupFetch.Views(parts());
    ended.end();
    assertNull(ended.next(MIB), "after the read call returned");
  }
}
