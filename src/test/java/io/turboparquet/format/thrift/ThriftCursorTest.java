package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.MAP;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.protocol.TProtocolUtil;
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport;

/**
 * The cursor's skip, the walk under every unwanted field of every struct, against Thrift's own
 * compact protocol (parquet-format's shaded libthrift): on real footers both end on the same
 * byte; on damaged bytes the cursor never accepts what Thrift refuses and, where both accept, ends
 * where Thrift ends; hostile values are refused with a message.
 */
class ThriftCursorTest {
  private static final int MAX = FooterOptions.DEFAULT_MAX_STRING_LENGTH;

  /** Where the array cursor's skip of a {@code type} value ends, or -1 when it refuses the bytes. */
  static int arrayEnd(byte[] b, int length, int type, int maxLength) {
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, length, maxLength);
    try {
      r.skip(type);
      return r.position();
    } catch (ParquetCorruptionException refused) {
      return -1;
    }
  }

  private static String thriftRefusal;

  /** Where libthrift's skip of a struct ends, or -1 when it refuses the bytes. */
  static int thriftEnd(byte[] b, int length) {
    ByteArrayInputStream in = new ByteArrayInputStream(b, 0, length);
    try {
      TProtocolUtil.skip(new TCompactProtocol(new TIOStreamTransport(in)), (byte) 12); // TType.STRUCT
    } catch (TException | RuntimeException refused) {
      thriftRefusal = refused.toString();
      return -1;
    }
    return length - in.available();
  }

  static byte[] footer(String name) throws IOException {
    return footer(CorpusFiles.file(name));
  }

  static byte[] footer(Path file) throws IOException {
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
    return Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
  }

  @Test
  void realFootersAreSkippedWholeWhereThriftEnds() throws IOException {
    int skipped = 0;
    for (Path file : CorpusFiles.goodFiles()) {
      byte[] b = footer(file);
      int thrift = thriftEnd(b, b.length);
      if (thrift < 0) {
        continue;
      }
      assertEquals(b.length, thrift, file.toString());
      assertEquals(b.length, arrayEnd(b, b.length, STRUCT, MAX), file.toString());
      skipped++;
    }
    assertTrue(skipped > 20, "footers skipped: " + skipped);
  }

  @Test
  void everyTruncationIsRefusedByName() throws IOException {
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet")) {
      byte[] b = footer(name);
      for (int len = 0; len < b.length; len++) {
        int n = len;
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
            () -> new ThriftCursor("f.parquet", "footer", b, 0, n, MAX).skip(STRUCT), name + " cut at " + len);
        assertTrue(e.getMessage().startsWith("[f.parquet] footer: "), e.getMessage());
      }
    }
  }

  @Test
  void damagedBytesAreSkippedAsThriftDoesOrRefused() throws IOException {
    Random random = new Random(7);
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet",
        "datapage_v2.snappy.parquet")) {
      byte[] footer = footer(name);
      int accepted = 0;
      for (int round = 0; round < 2000; round++) {
        byte[] b = footer.clone();
        for (int k = 1 + random.nextInt(4); k > 0; k--) {
          b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        }
        int len = random.nextInt(8) == 0 ? random.nextInt(b.length + 1) : b.length;
        if (assertAgrees(b, len, STRUCT, MAX, name + " round " + round) >= 0) {
          accepted++;
        }
      }
      assertTrue(accepted > 100, name + ": damaged footers still skipped: " + accepted);
    }
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[1 + random.nextInt(40)];
      random.nextBytes(b);
      int type = 1 + random.nextInt(12);
      int maxLength = 1 + random.nextInt(64);
      int end = arrayEnd(b, b.length, type, maxLength);
      assertTrue(end >= -1 && end <= b.length, "noise " + round);
    }
  }

  /** What the cursor accepts, Thrift accepts and ends at the same byte. */
  private static int assertAgrees(byte[] b, int length, int type, int maxLength, String what) {
    int array = arrayEnd(b, length, type, maxLength);
    if (array >= 0) {
      assertEquals(thriftEnd(b, length), array, () -> what + ": " + thriftRefusal);
    }
    return array;
  }

  @Test
  void hostileValuesAreRefused() {
    // a list claiming 2^31-1 elements, a binary longer than the bytes left or the limit, a negative length
    assertRefused(new CompactWriter().beginStruct().field(1, LIST).raw(0xf0 | STRUCT).varint(Integer.MAX_VALUE)
        .bytes(), MAX, "claims 2147483647 elements");
    assertRefused(new CompactWriter().beginStruct().field(1, BINARY).varint(1 << 30).raw('a').stop().bytes(), MAX,
        "a skipped binary is 1073741824 bytes long but only");
    assertRefused(new CompactWriter().beginStruct().string(1, "0123456789").stop().bytes(), 9,
        "more than the limit of 9");
    assertRefused(new CompactWriter().beginStruct().field(1, BINARY).varint(0xffffffffL).stop().bytes(), MAX,
        "negative length");
    assertRefused(new CompactWriter().beginStruct().field(1, MAP).varint(1000).raw(0x55, 2, 2).stop().bytes(), MAX,
        "a skipped map claims 1000 entries");
    CompactWriter deep = new CompactWriter().beginStruct();
    for (int i = 0; i < 100; i++) {
      deep.struct(1);
    }
    for (int i = 0; i < 101; i++) {
      deep.stop();
    }
    assertRefused(deep.bytes(), MAX, "nested more than 64 levels");
    assertRefused(new byte[] {0x16, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 0}, MAX, "longer than 10 bytes");
    assertRefused(new byte[] {0x1d, 0}, MAX, "unknown Thrift wire type 13");
    assertRefused(new CompactWriter().beginStruct().list(1, 0x0d, 0).stop().bytes(), MAX,
        "has elements of unknown wire type 13");
  }

  @Test
  void fieldIdsBeyondAnI16AreRefusedWhenDecoded() {
    byte[] longForm = new CompactWriter().beginStruct().raw(I32).varint(140_000).raw(2).stop().bytes();
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> new ThriftCursor("h.parquet", "footer", longForm, 0, longForm.length, MAX).readField(0));
    assertTrue(e.getMessage().contains("field id 70000 does not fit in an i16"), e.getMessage());
    byte[] delta = {(byte) 0xf5, 2};
    e = assertThrows(ParquetCorruptionException.class,
        () -> new ThriftCursor("h.parquet", "footer", delta, 0, delta.length, MAX).readField(Short.MAX_VALUE - 2));
    assertTrue(e.getMessage().contains("field id 32780 is out of range"), e.getMessage());
  }

  private static void assertRefused(byte[] b, int maxLength, String fragment) {
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> new ThriftCursor("h.parquet", "footer", b, 0, b.length, maxLength).skip(STRUCT));
    assertTrue(e.getMessage().startsWith("[h.parquet] footer: ") && e.getMessage().contains(fragment),
        e.getMessage());
  }

  @Test
  void unusualButValidValuesAreSkippedAsThriftDoes() {
    // long-form ids, a nested map and set, doubles, bools inside lists
    CompactWriter w = new CompactWriter().beginStruct().longField(1000, I32).rawZigzag(-5);
    w.field(1001, ThriftCursor.DOUBLE).raw(1, 2, 3, 4, 5, 6, 7, 8);
    w.list(1002, ThriftCursor.BOOLEAN_TRUE, 3).raw(1, 2, 1);
    w.field(1003, ThriftCursor.SET).listHeader(BINARY, 2).rawString("a").rawString("bc");
    w.field(1004, MAP).varint(1).raw(BINARY << 4 | STRUCT).rawString("k").beginStruct().i32(1, 1).stop();
    byte[] b = w.stop().bytes();
    assertEquals(b.length, thriftEnd(b, b.length));
    assertEquals(b.length, arrayEnd(b, b.length, STRUCT, MAX));
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
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> FooterDecoder.decode(
        "hostile.parquet", 1 << 20, b, 0, b.length, FooterOptions.DEFAULT.withColumns(ColumnSelector.NONE)));
    assertTrue(e.getMessage().contains("a skipped binary is 1048576 bytes long"), e.getMessage());
  }

  static int indexOf(byte[] b, int... pattern) {
    for (int i = 0; i + pattern.length <= b.length; i++) {
      int k = 0;
      while (k < pattern.length && b[i + k] == (byte) pattern[k]) {
        k++;
      }
      if (k == pattern.length) {
        return i;
      }
    }
    throw new AssertionError("pattern not found");
  }

  /** {@code b} with ten continuation bytes put before the varint at {@code at}. */
  static byte[] longVarintAt(byte[] b, int at) {
    byte[] out = new byte[b.length + 10];
    System.arraycopy(b, 0, out, 0, at);
    Arrays.fill(out, at, at + 10, (byte) 0x80);
    System.arraycopy(b, at, out, at + 10, b.length - at);
    return out;
  }
}
