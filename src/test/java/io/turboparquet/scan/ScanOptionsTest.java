package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScanOptionsTest {
  @Test
  void coalescingDefaultsAreTheDocumentedOnes() {
    ScanOptions d = ScanOptions.defaults();
    assertTrue(d.io().coalescedReads());
    assertEquals(0, d.io().coalesceGap());
    assertEquals(1 << 20, d.io().coalesceMaxSize());
    assertTrue(d.io().prefetchRowGroups());
    assertFalse(d.io().readAheadHint());
    assertFalse(d.decode().decodeAhead());
    assertEquals(d, d.toBuilder().build());
    ScanOptions ahead = d.toBuilder().decodeAhead(true).build();
    assertTrue(ahead.decode().decodeAhead());
    assertEquals(ahead, ahead.toBuilder().build());
  }

  @Test
  void pruningIsOnByDefaultAndKeptByToBuilder() {
    ScanOptions d = ScanOptions.defaults();
    assertEquals(new ScanOptions.Pruning(true, true, true, true), d.pruning());
    ScanOptions off = d.toBuilder().dictionaryPruning(false).bloomFilterPruning(false).build();
    assertFalse(off.pruning().dictionaryPruning());
    assertFalse(off.pruning().bloomFilterPruning());
    assertTrue(off.pruning().pageIndexSkipping());
    assertEquals(off, off.toBuilder().build());
  }

  /** Every setter reaches its group's component, and toBuilder keeps every one. */
  @Test
  void everySettingIsKeptByToBuilder() {
    ScanOptions set = ScanOptions.builder()
        .scanThreads(3).decodeThreads(5)
        .asyncPageReads(false).bufferedReads(false).bufferSize(4096).readAheadHint(true).queueDepth(7)
        .memoryBudget(1L << 30).coalescedReads(false).coalesceGap(100).coalesceMaxSize(8192).prefetchRowGroups(false)
        .batchSize(10).batchBytes(1000).parallelDecode(false).decodeAhead(true).verifyChecksums(true)
        .pageIndexSkipping(false).dictionaryPruning(false).bloomFilterPruning(false).lateMaterialization(false)
        .maxPageBytes(1 << 20).maxPageEntries(1000)
        .build();
    assertEquals(new ScanOptions.Threads(3, 5), set.threads());
    assertEquals(new ScanOptions.Io(false, false, 4096, true, 7, 1L << 30, false, 100, 8192, false), set.io());
    assertEquals(new ScanOptions.Decode(10, 1000, false, true, true), set.decode());
    assertEquals(new ScanOptions.Pruning(false, false, false, false), set.pruning());
    assertEquals(new ScanOptions.Limits(1 << 20, 1000), set.limits());
    assertEquals(set, set.toBuilder().build());
  }

  @Test
  void badCoalescingValuesAreRefusedByName() {
    IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
        () -> ScanOptions.builder().coalesceGap(-1).build());
    assertTrue(gap.getMessage().contains("coalesceGap"), gap.getMessage());
    IllegalArgumentException max = assertThrows(IllegalArgumentException.class,
        () -> ScanOptions.builder().coalesceMaxSize(100).build());
    assertTrue(max.getMessage().contains("coalesceMaxSize"), max.getMessage());
  }

  /** Each group validates its own settings, however it is built. */
  @Test
  void groupsRefuseBadValuesByName() {
    IllegalArgumentException threads = assertThrows(IllegalArgumentException.class,
        () -> new ScanOptions.Threads(1, 0));
    assertTrue(threads.getMessage().contains("decodeThreads"), threads.getMessage());
    IllegalArgumentException budget = assertThrows(IllegalArgumentException.class,
        () -> new ScanOptions.Io(true, true, 1 << 20, false, 2, 100, true, 0, 1 << 20, true));
    assertTrue(budget.getMessage().contains("memoryBudget"), budget.getMessage());
    IllegalArgumentException rows = assertThrows(IllegalArgumentException.class,
        () -> new ScanOptions.Decode(0, 1000, true, false, false));
    assertTrue(rows.getMessage().contains("batchSize"), rows.getMessage());
    ScanOptions d = ScanOptions.defaults();
    assertThrows(IllegalArgumentException.class, () -> new ScanOptions(d.threads(), null, d.decode(), d.pruning(),
        d.limits()));
  }

  @Test
  void pageLimitsAreRefusedByNameAndKeptByToBuilder() {
    IllegalArgumentException bytes = assertThrows(IllegalArgumentException.class,
        () -> ScanOptions.builder().maxPageBytes(100).build());
    assertTrue(bytes.getMessage().contains("maxPageBytes"), bytes.getMessage());
    IllegalArgumentException entries = assertThrows(IllegalArgumentException.class,
        () -> ScanOptions.builder().maxPageEntries(0).build());
    assertTrue(entries.getMessage().contains("maxPageEntries"), entries.getMessage());
    ScanOptions set = ScanOptions.builder().maxPageBytes(1 << 20).maxPageEntries(1000).build();
    assertEquals(set, set.toBuilder().build());
    assertEquals(1 << 26, ScanOptions.defaults().limits().maxPageEntries());
  }

  @Test
  void batchBytesDefaultsTo256MiBAndStaysBelow2GiB() {
    assertEquals(256L << 20, ScanOptions.defaults().decode().batchBytes());
    ScanOptions small = ScanOptions.builder().batchBytes(1).build();
    assertEquals(small, small.toBuilder().build());
    assertEquals(ScanOptions.MAX_BATCH_BYTES,
        ScanOptions.builder().batchBytes(ScanOptions.MAX_BATCH_BYTES).build().decode().batchBytes());
    for (long bad : new long[] {0, -1, ScanOptions.MAX_BATCH_BYTES + 1, Long.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ScanOptions.builder().batchBytes(bad).build());
      assertTrue(e.getMessage().contains("batchBytes"), e.getMessage());
    }
  }

  /** Read buffers share half the budget over columns x (queueDepth + 1), never below 4 KiB. */
  @Test
  void bufferSizeShrinksToTheBudget() {
    ScanOptions.Io io = ScanOptions.builder().bufferSize(1 << 20).queueDepth(1).memoryBudget(4L << 20).build().io();
    assertEquals(1 << 20, io.bufferSizeFor(1));
    assertEquals(1 << 20, io.bufferSizeFor(0));
    assertEquals(256 << 10, io.bufferSizeFor(4));
    assertEquals(ScanOptions.MIN_BUFFER_SIZE, io.bufferSizeFor(10_000));
    assertEquals(2L << 20, io.prefetchBudget());
    assertEquals(1000, ScanOptions.builder().bufferSize(1000).build().io().bufferSizeFor(10_000));
  }
}
