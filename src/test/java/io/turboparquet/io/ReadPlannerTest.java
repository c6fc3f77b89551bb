package io.turboparquet.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    List<long[]> parts = plan.get(2).parts(1500);
    assertEquals(3, parts.size());
    assertArrayEquals(new long[] {1000, 2500}, parts.get(0));
    assertArrayEquals(new long[] {2500, 4000}, parts.get(1));
    assertArrayEquals(new long[] {4000, 5000}, parts.get(2));
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ReadPlanner.coalesce(new long[1], new long[2], 0, 10));
    assertThrows(IllegalArgumentException.class, () -> ReadPlanner.coalesce(STARTS, ENDS, -1, 10));
    assertEquals(List.of(), ReadPlanner.coalesce(new long[0], new long[0], 0, 10));
  }
}
