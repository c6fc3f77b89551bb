package io.turboparquet.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadPlannerTest {
  // Chunks in projection order (not file order): [100,200) [200,300) [350,400) [1000,5000)
  private static final long[] STARTS = {200, 100, 1000, 350};
  private static final long[] ENDS = {300, 200, 5000, 400};

  @Test
  void adjacentChunksMergeAndGapsSplitWhenLargerThanAllowed() {
    List<ReadPlanner.Range> plan = ReadPlanner.coalesce(STARTS, ENDS, 0, 1 << 20);
    assertEquals(3, plan.size());
    assertEquals(100, plan.get(0).start());
    assertEquals(300, plan.get(0).end());
    assertArrayEquals(new int[] {1, 0}, plan.get(0).members());
    assertArrayEquals(new int[] {3}, plan.get(1).members());
    assertArrayEquals(new int[] {2}, plan.get(2).members());
  }

  @Test
  void aGapUpToTheLimitIsReadThrough() {
    List<ReadPlanner.Range> plan = ReadPlanner.coalesce(STARTS, ENDS, 50, 1 << 20);
    assertEquals(2, plan.size());
    assertEquals(100, plan.get(0).start());
    assertEquals(400, plan.get(0).end());
    assertArrayEquals(new int[] {1, 0, 3}, plan.get(0).members());
    assertEquals(1000, plan.get(1).start());
  }

  @Test
  void rangesStopAtTheMaximumSizeAndLargeChunksAreReadInParts() {
    List<ReadPlanner.Range> plan = ReadPlanner.coalesce(STARTS, ENDS, 1000, 250);
    // [100,300) fits in 250; adding [350,400) would make 300; [1000,5000) is alone and too big.
    assertEquals(3, plan.size());
    assertEquals(300, plan.get(0).end());
    assertEquals(4000, plan.get(2).length());
    List<long[]> parts = plan.get(2).parts(1500, EXACT);
    assertEquals(3, parts.size());
    assertArrayEquals(new long[] {1000, 2500}, parts.get(0));
    assertArrayEquals(new long[] {2500, 4000}, parts.get(1));
    assertArrayEquals(new long[] {4000, 5000}, parts.get(2));
  }

  /** A source whose buffers cost their size. */
  private static final BufferSource EXACT = capacity -> {
    throw new UnsupportedOperationException();
  };

  /** A source that rounds every buffer up to a power of two, as Drill's allocator does below 16 MiB. */
  private static final BufferSource POWERS_OF_TWO = new BufferSource() {
    @Override
    public io.netty.buffer.ByteBuf buffer(int capacity) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long cost(int capacity) {
      return Integer.highestOneBit(capacity) == capacity ? capacity : Integer.highestOneBit(capacity) << 1;
    }
  };

  @Test
  void whereBuffersAreRoundedUpPartsWasteLittle() {
    long mib = 1 << 20;
    // 1.3 MB: 1 MiB, then 256,424 bytes, which rounding to 256 KiB barely wastes.
    assertParts(new long[] {mib, 256_424}, 1_305_000, mib);
    // 1.6 MiB: one 1 MiB buffer for the last 0.6 MiB would waste a quarter of the range; it splits.
    assertParts(new long[] {mib, mib / 2, 104_858}, mib + 629_146, mib);
    for (long length : new long[] {mib + 629_146, 3 * mib + 1, 5_000_000, 12_345_678, 700_000}) {
      List<long[]> parts = new ReadPlanner.Range(0, length, new int[] {0}).parts(mib, POWERS_OF_TWO);
      long wasted = 0;
      for (long[] p : parts) {
        long size = p[1] - p[0];
        wasted += POWERS_OF_TWO.cost((int) size) - size;
        assertTrue(size <= mib, "a part is at most the maximum");
      }
      assertEquals(length, parts.get(parts.size() - 1)[1]);
      assertTrue(wasted <= Math.max(length / 16, 16 << 10), "wasted " + wasted + " of " + length);
    }
    // Small ranges stay whole: rounding them up wastes less than the slack.
    assertParts(new long[] {10_000}, 10_000, mib);
    // A maximum that is not a power of two: the largest power of two below it, then the rest.
    assertParts(new long[] {2_097_152, 2_097_152, 805_696}, 5_000_000, 3_000_000);
    // Buffers that cost their size: parts of the maximum, as many as it takes.
    List<long[]> exact = new ReadPlanner.Range(7, 5007, new int[] {0}).parts(3000, EXACT);
    assertEquals(2, exact.size());
    assertArrayEquals(new long[] {7, 3007}, exact.get(0));
    assertArrayEquals(new long[] {3007, 5007}, exact.get(1));
  }

  private static void assertParts(long[] sizes, long length, long maxPart) {
    List<long[]> parts = new ReadPlanner.Range(7, 7 + length, new int[] {0}).parts(maxPart, POWERS_OF_TWO);
    long at = 7;
    assertEquals(sizes.length, parts.size(), "parts of " + length);
    for (int i = 0; i < sizes.length; i++) {
      assertArrayEquals(new long[] {at, at + sizes[i]}, parts.get(i));
      at += sizes[i];
    }
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ReadPlanner.coalesce(new long[1], new long[2], 0, 10));
    assertThrows(IllegalArgumentException.class, () -> ReadPlanner.coalesce(STARTS, ENDS, -1, 10));
    assertEquals(List.of(), ReadPlanner.coalesce(new long[0], new long[0], 0, 10));
  }
}
