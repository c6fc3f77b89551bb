package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BINARY;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.LIST;
import static io.turboparquet.format.thrift.CompactReader.MAP;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterOptions.ColumnSelector;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tight skip loop against the checked walk of {@link CompactReader#skip} (through a
 * {@link StreamCompactReader}, which never takes the fast path): whenever the loop skips a value
 * it ends where the checked walk ends, and whatever the checked walk refuses the loop declines.
 */
class CompactSkipperTest {
  private static final int MAX = FooterOptions.DEFAULT_MAX_STRING_LENGTH;

  /** Where the checked walk ends, or -1 when it refuses the bytes. */
  static int checkedEnd(byte[] b, int length, int type, int maxLength) {
    StreamCompactReader r = new StreamCompactReader("x", maxLength)
        .reset(new ByteArrayInputStream(b, 0, length), "test", "struct", 0);
    try {
      r.skip(type);
      return (int) r.consumed();
    } catch (ParquetCorruptionException refused) {
      return -1;
    }
  }

  /** The loop may decline what the checked walk accepts (it then runs), never the reverse. */
  static void assertAgrees(byte[] b, int length, int type, int maxLength, String what) {
    int fast = CompactSkipper.skip(b, 0, length, type, maxLength);
    if (fast != CompactSkipper.FAIL) {
      assertEquals(checkedEnd(b, length, type, maxLength), fast, what);
    }
  }

  static byte[] footer(String name) throws IOException {
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(CorpusFiles.file(name));
    return Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
  }

  @Test
  void realFootersAreSkippedWholeWhereTheCheckedWalkEnds() throws IOException {
    int skipped = 0;
    for (Path file : CorpusFiles.goodFiles()) {
      FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
      byte[] b = Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
      int checked = checkedEnd(b, b.length, STRUCT, MAX);
      if (checked < 0) {
        continue; // not even the checked walk takes it
      }
      assertEquals(checked, CompactSkipper.skip(b, 0, b.length, STRUCT, MAX), file.toString());
      skipped++;
    }
    assertTrue(skipped > 20, "footers skipped: " + skipped);
  }

  @Test
  void everyTruncationIsDeclined() throws IOException {
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet")) {
      byte[] b = footer(name);
      for (int len = 0; len < b.length; len++) {
        assertEquals(CompactSkipper.FAIL, CompactSkipper.skip(b, 0, len, STRUCT, MAX), name + " cut at " + len);
      }
    }
  }

  @Test
  void randomDamageNeverSkipsOtherwiseThanTheCheckedWalk() throws IOException {
    Random random = new Random(7);
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet",
        "datapage_v2.snappy.parquet")) {
      byte[] footer = footer(name);
      int agreedOnSuccess = 0;
      for (int round = 0; round < 2000; round++) {
        byte[] b = footer.clone();
        for (int k = 1 + random.nextInt(4); k > 0; k--) {
          b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        }
        int len = random.nextInt(8) == 0 ? random.nextInt(b.length + 1) : b.length;
        assertAgrees(b, len, STRUCT, MAX, name + " round " + round);
        if (CompactSkipper.skip(b, 0, len, STRUCT, MAX) >= 0) {
          agreedOnSuccess++;
        }
      }
      assertTrue(agreedOnSuccess > 100, name + ": damage the loop still skips: " + agreedOnSuccess);
    }
    // and plain noise, every wire type at the top
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[1 + random.nextInt(40)];
      random.nextBytes(b);
      assertAgrees(b, b.length, 1 + random.nextInt(12), 1 + random.nextInt(64), "noise " + round);
    }
  }

  @Test
  void hostileValuesAreDeclined() {
    // a list claiming 2^31-1 elements, a binary longer than the bytes left or the limit, a negative length
    assertDeclined(new CompactWriter().beginStruct().field(1, LIST).raw(0xf0 | STRUCT).varint(Integer.MAX_VALUE)
        .bytes(), MAX);
    assertDeclined(new CompactWriter().beginStruct().field(1, BINARY).varint(1 << 30).raw('a').stop().bytes(), MAX);
    assertDeclined(new CompactWriter().beginStruct().string(1, "0123456789").stop().bytes(), 9);
    assertDeclined(new CompactWriter().beginStruct().field(1, BINARY).varint(0xffffffffL).stop().bytes(), MAX);
    // a map claiming more entries than half the bytes left
    assertDeclined(new CompactWriter().beginStruct().field(1, MAP).varint(1000).raw(0x55, 2, 2).stop().bytes(), MAX);
    // nesting beyond the reader's limit
    CompactWriter deep = new CompactWriter().beginStruct();
    for (int i = 0; i < 100; i++) {
      deep.struct(1);
    }
    for (int i = 0; i < 101; i++) {
      deep.stop();
    }
    assertDeclined(deep.bytes(), MAX);
    // an 11-byte varint, an unknown wire type, field ids beyond i16 (long form and by deltas)
    assertDeclined(new byte[] {0x16, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 0}, MAX);
    assertDeclined(new byte[] {0x1d, 0}, MAX);
    assertDeclined(new CompactWriter().beginStruct().raw(I32).varint(140_000).raw(2).stop().bytes(), MAX); // id 70000
    CompactWriter deltas = new CompactWriter().beginStruct().longField(Short.MAX_VALUE - 2, I32).rawZigzag(1);
    deltas.raw(0xf5, 2); // delta 15 goes past 32767
    assertDeclined(deltas.stop().bytes(), MAX);
  }

  private static void assertDeclined(byte[] b, int maxLength) {
    assertEquals(-1, checkedEnd(b, b.length, STRUCT, maxLength), "the checked walk refuses it too");
    assertEquals(CompactSkipper.FAIL, CompactSkipper.skip(b, 0, b.length, STRUCT, maxLength));
  }

  @Test
  void unusualButValidValuesAreSkippedByOneOrTheOther() {
    // long-form ids, a nested map and set, doubles, bools inside lists: all accepted by the checked walk
    CompactWriter w = new CompactWriter().beginStruct().longField(1000, I32).rawZigzag(-5);
    w.field(1001, CompactReader.DOUBLE).raw(1, 2, 3, 4, 5, 6, 7, 8);
    w.list(1002, CompactReader.BOOLEAN_TRUE, 3).raw(1, 2, 1);
    w.field(1003, CompactReader.SET).listHeader(BINARY, 2).rawString("a").rawString("bc");
    w.field(1004, MAP).varint(1).raw(BINARY << 4 | STRUCT).rawString("k").beginStruct().i32(1, 1).stop();
    byte[] b = w.stop().bytes();
    int checked = checkedEnd(b, b.length, STRUCT, MAX);
    assertEquals(b.length, checked);
    assertEquals(b.length, CompactSkipper.skip(b, 0, b.length, STRUCT, MAX));
  }

  @Test
  void damageInAnUnprojectedChunkFailsTheProjectedDecodeByName() throws IOException {
    // the chunks of leaf 0 are decoded, the others skipped: cutting the footer anywhere still fails clearly
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(CorpusFiles.file("alltypes_tiny_pages.parquet"));
    FooterOptions leaf0 = FooterOptions.DEFAULT.withColumns(ColumnSelector.leaves(0));
    for (int len = 0; len < f.length(); len += 7) {
      int n = len;
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
          () -> FooterDecoder.decode("cut.parquet", f.file().length, f.file(), f.offset(), n, leaf0), "cut at " + n);
      assertTrue(e.getMessage().startsWith("[cut.parquet] footer: "), e.getMessage());
    }
    // a string length in an unprojected chunk that runs past the footer
    byte[] b = MalformedFooterTest.footer(w -> { }, w -> w.field(13, BINARY).varint(1 << 20), 0, 0);
    try {
      FooterDecoder.decode("hostile.parquet", 1 << 20, b, 0, b.length, FooterOptions.DEFAULT.withColumns(
          ColumnSelector.NONE));
      fail("decoded");
    } catch (ParquetCorruptionException e) {
      assertTrue(e.getMessage().contains("a skipped binary is 1048576 bytes long"), e.getMessage());
    }
  }
}
