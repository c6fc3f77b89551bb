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
    assertTrue(d.coalescedReads());
    assertEquals(0, d.coalesceGap());
    assertEquals(1 << 20, d.coalesceMaxSize());
    assertTrue(d.prefetchRowGroups());
    assertFalse(d.readAheadHint());
    assertFalse(d.decodeAhead());
    assertEquals(d, d.toBuilder().build());
    ScanOptions ahead = d.toBuilder().decodeAhead(true).build();
    assertTrue(ahead.decodeAhead());
    assertEquals(ahead, ahead.toBuilder().build());
  }

  @Test
  void pruningIsOnByDefaultAndKeptByToBuilder() {
    ScanOptions d = ScanOptions.defaults();
    assertTrue(d.dictionaryPruning());
    assertTrue(d.bloomFilterPruning());
    ScanOptions off = d.toBuilder().dictionaryPruning(false).bloomFilterPruning(false).build();
    assertFalse(off.dictionaryPruning());
    assertFalse(off.bloomFilterPruning());
    assertEquals(off, off.toBuilder().build());
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
    assertEquals(1 << 26, ScanOptions.defaults().maxPageEntries());
  }

  @Test
  void batchBytesDefaultsTo256MiBAndStaysBelow2GiB() {
    assertEquals(256L << 20, ScanOptions.defaults().batchBytes());
    ScanOptions small = ScanOptions.builder().batchBytes(1).build();
    assertEquals(small, small.toBuilder().build());
    assertEquals(ScanOptions.MAX_BATCH_BYTES,
        ScanOptions.builder().batchBytes(ScanOptions.MAX_BATCH_BYTES).build().batchBytes());
    for (long bad : new long[] {0, -1, ScanOptions.MAX_BATCH_BYTES + 1, Long.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ScanOptions.builder().batchBytes(bad).build());
      assertTrue(e.getMessage().contains("batchBytes"), e.getMessage());
    }
  }
}
