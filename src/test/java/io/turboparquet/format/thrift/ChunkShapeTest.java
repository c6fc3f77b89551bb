package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BINARY;
import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.CompactReader.BYTE;
import static io.turboparquet.format.thrift.CompactReader.DOUBLE;
import static io.turboparquet.format.thrift.CompactReader.I16;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.LIST;
import static io.turboparquet.format.thrift.CompactReader.MAP;
import static io.turboparquet.format.thrift.CompactReader.SET;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Learned chunk shapes against the checked walk: a chunk a shape accepts ends exactly where
 * {@link CompactReader#skip} ends, on real footers, on footers whose names and string bounds vary
 * in length, on chunks with every wire type, and on damaged and truncated chunks; anything that
 * would walk differently is a miss.
 */
class ChunkShapeTest {
  private static final int MAX = FooterOptions.DEFAULT_MAX_STRING_LENGTH;

  @TempDir static Path dir;

  /** Where the checked reader ends the struct at {@code b[from]}, or -1 if it refuses it. */
  static int checkedEnd(byte[] b, int from, int limit) {
    StreamCompactReader r = new StreamCompactReader("x", MAX)
        .reset(new ByteArrayInputStream(b, from, limit - from), "test", "chunk", 0);
    try {
      r.skip(STRUCT);
      return from + (int) r.consumed();
    } catch (ParquetCorruptionException refused) {
      return -1;
    }
  }

  /** Skips every chunk in order through one {@link ChunkShapes}, each checked; returns the hits. */
  static int skipAll(byte[] footer, List<Integer> starts) {
    ChunkShapes shapes = new ChunkShapes(MAX);
    for (int s : starts) {
      assertEquals(checkedEnd(footer, s, footer.length), shapes.skip(footer, s, footer.length), "chunk at " + s);
    }
    return shapes.hits();
  }

  @Test
  void everyChunkOfRealFootersEndsWhereTheCheckedWalkEnds() throws IOException {
    byte[] wideFooter = wideFooter("wide.parquet", 60, 3000, 5);
    List<Integer> wideStarts = ChunkSkipperTest.chunkStarts(wideFooter);
    int hits = skipAll(wideFooter, wideStarts);
    assertTrue(wideStarts.size() > 1000 && hits > wideStarts.size() * 9 / 10,
        hits + " of " + wideStarts.size() + " chunks skipped by a shape");
    int chunks = 0;
    for (Path file : CorpusFiles.goodFiles()) {
      byte[] footer = footer(file);
      List<Integer> starts;
      try {
        starts = ChunkSkipperTest.chunkStarts(footer);
      } catch (ParquetCorruptionException notEvenChecked) {
        continue;
      }
      skipAll(footer, starts);
      chunks += starts.size();
    }
    assertTrue(chunks > 200, "corpus chunks: " + chunks);
  }

  /** The footer of a file of {@code columns} INT64 columns written by parquet-java. */
  static byte[] wideFooter(String name, int columns, int rows, long seed) throws IOException {
    Path file = dir.resolve(name);
    TestFileGenerator.wideInt64(file, columns, rows, 1024, 16 << 10, seed);
    return footer(file);
  }

  static byte[] footer(Path file) throws IOException {
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
    return Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
  }

  /** A ColumnChunk as parquet-java writes one for a string column with statistics. */
  static void stringChunk(CompactWriter w, String name, String min, String max, long offset) {
    w.beginStruct().i64(2, 0).struct(3).i32(1, 6).list(2, I32, 2).rawZigzag(0).rawZigzag(3);
    w.list(3, BINARY, 1).rawString(name);
    w.i32(4, 1).i64(5, 1000).i64(6, 9000 + offset % 50).i64(7, 4000 + offset % 70).i64(9, offset);
    w.struct(12).i64(3, 0).string(5, max).string(6, min).stop();
    w.list(13, STRUCT, 1).beginStruct().i32(1, 0).i32(2, 0).i32(3, 1).stop();
    w.stop();
    w.i64(4, offset * 3).i32(5, 20 + (int) (offset % 9)).i64(6, offset * 3 + 100).i32(7, 40).stop();
  }

  @Test
  void namesAndStringBoundsOfEveryLengthAreSkippedByWidenedShapes() {
    Random random = new Random(3);
    CompactWriter w = new CompactWriter();
    List<Integer> starts = new ArrayList<>();
    int size = 0;
    for (int c = 0; c < 3000; c++) {
      starts.add(size);
      String name = "col_" + "x".repeat(random.nextInt(12));
      String min = "m".repeat(random.nextInt(30));
      String max = min + "z".repeat(random.nextInt(20));
      stringChunk(w, name, min, max, 4 + 10_000L * c);
      size = w.size();
    }
    w.raw(0x15, 0x02, 0x00); // the row group's other fields, as after the last chunk in a footer
    byte[] footer = w.bytes();
    int hits = skipAll(footer, starts);
    assertTrue(hits > starts.size() * 3 / 4, hits + " of " + starts.size() + " chunks skipped by a shape");
  }

  @Test
  void aWideFooterWithAFewVariantsIsSkippedByShapesAroundProjectedChunks() {
    // 20 row groups x 1000 string columns c0..c999, bounds of 2-4 bytes, growing offsets (one- to
    // five-byte varints): the benchmark's footer. Every 100th chunk is decoded, not skipped.
    Random random = new Random(5);
    CompactWriter w = new CompactWriter();
    List<Integer> starts = new ArrayList<>();
    int size = 0;
    long offset = 4;
    for (int g = 0; g < 20; g++) {
      for (int c = 0; c < 1000; c++) {
        int r = random.nextInt(100);
        String min = r < 86 ? "s0" : r < 95 ? "s10" : "s100";
        stringChunk(w, "c" + c, min, "s99" + random.nextInt(10), offset);
        offset += 8000 + random.nextInt(100);
        size = w.size();
        if (c % 100 != 99) {
          starts.add(size);
        }
      }
    }
    w.raw(0x15, 0x02, 0x00);
    byte[] footer = w.bytes();
    starts.remove(starts.size() - 1);
    int hits = skipAll(footer, starts);
    assertTrue(hits > starts.size() * 95 / 100, hits + " of " + starts.size() + " chunks skipped by a shape");
  }

  /** A ColumnChunk whose key_value_metadata has {@code entries} entries: a shape of its own. */
  static void chunkWithMetadata(CompactWriter w, int entries) {
    w.beginStruct().i64(2, 0).struct(3).i32(1, 1).list(2, I32, 1).rawZigzag(0).list(3, BINARY, 1).rawString("c")
        .i32(4, 0).i64(5, 1).i64(6, 1).i64(7, 1).i64(9, 4);
    w.list(8, STRUCT, entries);
    for (int k = 0; k < entries; k++) {
      w.beginStruct().string(1, "k").stop();
    }
    w.stop().stop();
  }

  @Test
  void chunksThatNeverRepeatAShapeAreAllSkippedTheCheckedWay() {
    CompactWriter w = new CompactWriter();
    List<Integer> starts = new ArrayList<>();
    for (int c = 0; c < 150; c++) {
      starts.add(w.size());
      chunkWithMetadata(w, c);
    }
    w.raw(0x15, 0x02, 0x00);
    byte[] footer = w.bytes();
    assertEquals(0, skipAll(footer, starts), "no chunk has the shape of another");
  }

  @Test
  void chunksThatSettleAfterAnIrregularStartAreStillSkippedByShapes() {
    // 300 chunks of which no two have the same shape (a key_value_metadata list of a different
    // length each), then 3000 string chunks like those of a wide footer
    CompactWriter w = new CompactWriter();
    List<Integer> starts = new ArrayList<>();
    for (int c = 0; c < 300; c++) {
      starts.add(w.size());
      chunkWithMetadata(w, 15 + c);
    }
    for (int c = 0; c < 3000; c++) {
      starts.add(w.size());
      stringChunk(w, "column" + c % 10, "a", "b", 1_000_000 + c);
    }
    w.raw(0x15, 0x02, 0x00);
    byte[] footer = w.bytes();
    int hits = skipAll(footer, starts);
    assertTrue(hits > 3000 * 9 / 10, hits + " of the 3000 regular chunks skipped by a shape");
  }

  /** Parameters of {@link #everyType}: each changes how the chunk is walked, unless said otherwise. */
  record Variant(boolean flag, long number, String text, int listSize, int id, double free, int freeByte) {
    static final Variant BASE = new Variant(true, 300, "abc", 16, 100, 1.5, 7);
  }

  /** A struct with a field of every wire type; {@code free} and {@code freeByte} do not change its walk. */
  static byte[] everyType(Variant v) {
    CompactWriter w = new CompactWriter().beginStruct();
    w.bool(1, v.flag()).field(2, BYTE).raw(v.freeByte()).field(3, I16).rawZigzag(5).i64(4, v.number());
    w.field(5, DOUBLE);
    long bits = Double.doubleToLongBits(v.free());
    for (int i = 0; i < 8; i++) {
      w.raw((int) (bits >>> (8 * i)) & 0xff);
    }
    w.string(6, v.text());
    w.list(7, BOOLEAN_TRUE, 3).raw(1, v.freeByte() % 2 + 1, 2); // bools in a list: whole bytes, any value
    w.field(8, SET).listHeader(I32, v.listSize());
    for (int i = 0; i < v.listSize(); i++) {
      w.rawZigzag(i * 1000);
    }
    w.field(9, MAP).varint(2).raw(BINARY << 4 | I32).rawString("k1").rawZigzag(1).rawString("k22").rawZigzag(2);
    w.field(10, MAP).varint(0); // an empty map has no kinds byte
    w.struct(11).i32(1, 4).struct(2).string(1, "deep").stop().stop();
    w.longField(v.id(), I32).rawZigzag(9);
    w.stop();
    w.beginStruct().string(1, "what follows the chunk".repeat(3)).stop();
    return w.bytes();
  }

  @Test
  void everyWireTypeIsLearnedAndOnlyItsValuesMayDiffer() {
    byte[] base = everyType(Variant.BASE);
    int end = checkedEnd(base, 0, base.length);
    assertTrue(end > 0 && end < base.length - 50);
    ChunkShape shape = ChunkShape.learn(base, 0, end);
    assertNotNull(shape);
    assertEquals(end, shape.skip(base, 0, base.length, MAX));
    ChunkShape allDynamic = shape.widen(-1L);
    assertEquals(end, allDynamic.skip(base, 0, base.length, MAX));

    // other values of the same lengths: the same walk
    for (Variant same : List.of(new Variant(true, 301, "xyz", 16, 100, -7e300, 8),
        new Variant(true, 8191, "abc", 16, 100, Double.NaN, 255))) {
      byte[] b = everyType(same);
      assertEquals(checkedEnd(b, 0, b.length), shape.skip(b, 0, b.length, MAX), same.toString());
    }
    // a longer string: a miss for the learned length, the right end where the length is read
    byte[] longer = everyType(new Variant(true, 300, "abcdef", 16, 100, 1.5, 7));
    assertEquals(ChunkShape.MISS, shape.skip(longer, 0, longer.length, MAX));
    long lengths = shape.lengthsDiffering(learn(longer));
    assertNotEquals(0, lengths);
    assertEquals(checkedEnd(longer, 0, longer.length), shape.widen(lengths).skip(longer, 0, longer.length, MAX));
    assertEquals(ChunkShape.MISS, shape.widen(lengths).skip(longer, 0, longer.length, 5), "above the length limit");

    // whatever else changes the walk is a miss, even with every length read from the chunk
    List<UnaryOperator<Variant>> walkedOtherwise = List.of(
        v -> new Variant(false, v.number(), v.text(), v.listSize(), v.id(), v.free(), v.freeByte()),
        v -> new Variant(v.flag(), 1L << 20, v.text(), v.listSize(), v.id(), v.free(), v.freeByte()),
        v -> new Variant(v.flag(), v.number(), v.text(), 17, v.id(), v.free(), v.freeByte()),
        v -> new Variant(v.flag(), v.number(), v.text(), 3, v.id(), v.free(), v.freeByte()),
        v -> new Variant(v.flag(), v.number(), v.text(), v.listSize(), 101, v.free(), v.freeByte()));
    for (UnaryOperator<Variant> change : walkedOtherwise) {
      byte[] b = everyType(change.apply(Variant.BASE));
      assertEquals(ChunkShape.MISS, shape.skip(b, 0, b.length, MAX), change.apply(Variant.BASE).toString());
      assertEquals(ChunkShape.MISS, allDynamic.skip(b, 0, b.length, MAX), change.apply(Variant.BASE).toString());
      assertEquals(0, shape.lengthsDiffering(learn(b)), "not a difference of lengths alone");
    }
    // cut short anywhere: a miss
    for (int limit = 0; limit < end; limit++) {
      assertEquals(ChunkShape.MISS, shape.skip(base, 0, limit, MAX), "limit " + limit);
      assertEquals(ChunkShape.MISS, allDynamic.skip(base, 0, limit, MAX), "limit " + limit);
    }
  }

  private static ChunkShape learn(byte[] b) {
    ChunkShape s = ChunkShape.learn(b, 0, checkedEnd(b, 0, b.length));
    assertNotNull(s);
    return s;
  }

  @Test
  void damagedAndTruncatedChunksEndWhereTheCheckedWalkEndsOrMiss() throws IOException {
    byte[] footer = wideFooter("damaged.parquet", 20, 2000, 9);
    List<Integer> starts = ChunkSkipperTest.chunkStarts(footer);
    List<byte[]> chunks = new ArrayList<>();
    List<ChunkShape> shapes = new ArrayList<>();
    for (int i = 0; i < starts.size(); i += starts.size() / 5) {
      chunks.add(Arrays.copyOfRange(footer, starts.get(i), Math.min(footer.length, starts.get(i) + 300)));
    }
    chunks.add(everyType(Variant.BASE));
    for (byte[] c : chunks) {
      ChunkShape s = learn(c);
      shapes.add(s);
      shapes.add(s.widen(-1L));
    }
    Random random = new Random(17);
    int matched = 0;
    int missed = 0;
    for (int round = 0; round < 6000; round++) {
      int k = random.nextInt(chunks.size());
      byte[] b = chunks.get(k).clone();
      int end = checkedEnd(chunks.get(k), 0, b.length);
      for (int n = 1 + random.nextInt(3); n > 0; n--) {
        b[random.nextInt(end)] = (byte) random.nextInt(256);
      }
      int limit = random.nextInt(4) == 0 ? random.nextInt(b.length + 1) : b.length;
      int checked = checkedEnd(b, 0, limit);
      for (ChunkShape s : shapes) {
        int skipped = s.skip(b, 0, limit, MAX);
        if (skipped == ChunkShape.MISS) {
          missed++;
        } else {
          assertEquals(checked, skipped, "round " + round);
          matched++;
        }
      }
    }
    assertTrue(matched > 1000 && missed > 1000, "matched " + matched + ", missed " + missed);
  }

  @Test
  void largeChunksAreNotLearned() {
    CompactWriter w = new CompactWriter().beginStruct().string(1, "x".repeat(ChunkShape.MAX_BYTES)).stop();
    byte[] b = w.bytes();
    assertNull(ChunkShape.learn(b, 0, b.length));
    byte[] small = new CompactWriter().beginStruct().string(1, "x").stop().bytes();
    assertNull(ChunkShape.learn(small, 0, small.length - 1), "an end the walk does not reach");
  }
}
