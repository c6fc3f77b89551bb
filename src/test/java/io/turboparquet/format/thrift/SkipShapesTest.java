package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Shapes against the cursor's checked walk: a chunk that fits a shape ends where the walk ends,
 * and no damaged or truncated chunk fits a shape unless the walk accepts it and ends there too.
 */
class SkipShapesTest {
  private static final int MAX = FooterOptions.DEFAULT_MAX_STRING_LENGTH;

  /** Start offset and column of every ColumnChunk in a footer, found with the walk. */
  static List<int[]> chunks(byte[] footer) throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor("x", "footer", footer, 0, footer.length, MAX);
    List<int[]> out = new ArrayList<>();
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = ThriftCursor.fieldId(f);
      if (last != 4 || ThriftCursor.fieldType(f) != LIST) {
        r.skip(ThriftCursor.fieldType(f));
        continue;
      }
      for (int g = r.readList("row groups", STRUCT); g > 0; g--) {
        int id = 0;
        for (int h = r.readField(id); h >= 0; h = r.readField(id)) {
          id = ThriftCursor.fieldId(h);
          if (id != 1 || ThriftCursor.fieldType(h) != LIST) {
            r.skip(ThriftCursor.fieldType(h));
            continue;
          }
          int n = r.readList("columns", STRUCT);
          for (int c = 0; c < n; c++) {
            out.add(new int[] {r.position(), c});
            r.skip(STRUCT);
          }
        }
      }
    }
    return out;
  }

  /** Where the walk ends the struct at {@code b[at]} within {@code b[0, length)}, or -1. */
  static int walkEnd(byte[] b, int at, int length) {
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, length, MAX);
    r.seek(at);
    try {
      r.skip(STRUCT);
      return r.position();
    } catch (ParquetCorruptionException refused) {
      return -1;
    }
  }

  /** Learns a shape from every chunk of {@code footer} (all but the first of each column replayed). */
  static SkipShapes learned(byte[] footer, List<int[]> chunks) throws ParquetCorruptionException {
    SkipShapes shapes = new SkipShapes(MAX, chunks.stream().mapToInt(c -> c[1] + 1).max().orElse(0));
    ThriftCursor r = new ThriftCursor("x", "footer", footer, 0, footer.length, MAX);
    for (int[] chunk : chunks) {
      r.seek(chunk[0]);
      r.skipChunks(shapes, chunk[1], chunk[1] + 1);
      assertEquals(walkEnd(footer, chunk[0], footer.length), r.position());
    }
    return shapes;
  }

  /**
   * A chunk whose last segment outgrows the shape scratch (64 words at first): its end marker must
   * land in the grown array, else the next replay runs off the shape's end.
   */
  @Test
  void aShapeLongerThanTheScratchEndsWhereItShould() throws ParquetCorruptionException {
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, 3); // the third: bytes for whole words
    for (int chunk = 0; chunk < 3; chunk++) {
      w.beginStruct();
      for (int i = 1; i <= 60; i++) {
        w.field(i, ThriftCursor.DOUBLE).raw(0, 0, 0, 0, 0, 0, 0xf0, 0x3f); // 9 fixed bytes a field
      }
      w.stop();
    }
    byte[] b = w.stop().bytes();
    int first = 2; // after the field and list headers
    int second = walkEnd(b, first, b.length);
    SkipShapes shapes = new SkipShapes(MAX, 1);
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, b.length, MAX);
    r.seek(first);
    r.skipChunks(shapes, 0, 1); // walked, then learned
    assertEquals(second, r.position());
    r.skipChunks(shapes, 0, 1); // replayed
    assertEquals(walkEnd(b, second, b.length), r.position());
  }

  /**
   * A chunk laid out as pyarrow writes a string column's: its name, two string bounds, then a
   * size (near 64, its varint is one byte or two) and a flag.
   */
  private static CompactWriter stringChunk(CompactWriter w, long offset, String name, int max, int min, long size) {
    return stringChunk(w, offset, name, max, min, size, true, 5);
  }

  private static CompactWriter stringChunk(CompactWriter w, long offset, String name, int max, int min, long size,
      boolean flag, int flagId) {
    return w.beginStruct().i64(1, offset).list(2, ThriftCursor.BINARY, 1).rawString(name)
        .struct(3).string(5, "x".repeat(max)).string(6, "y".repeat(min)).stop()
        .i64(4, size).bool(flagId, flag).stop();
  }

  /** Skips the chunks of {@code b}'s list, chunk i as column {@code i % columns}; checks each end with the walk. */
  private static SkipShapes skipAll(byte[] b, int columns) throws ParquetCorruptionException {
    SkipShapes shapes = new SkipShapes(MAX, columns);
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, b.length, MAX);
    r.readField(0);
    int chunks = r.readList("chunks", STRUCT);
    for (int i = 0; i < chunks; i++) {
      int start = r.position();
      r.skipChunks(shapes, i % columns, i % columns + 1);
      assertEquals(walkEnd(b, start, b.length), r.position(), "chunk " + i);
    }
    return shapes;
  }

  /**
   * Columns whose last flag is true in some row groups and false in others, near the end of the
   * chunk (no fork: a field header differs, not a varint's length): the chunk of the other layout
   * is found among the shapes, not walked, and ends where the walk ends.
   */
  @Test
  void aFlagThatFlipsIsFoundAmongTheShapes() throws ParquetCorruptionException {
    int columns = 20;
    Random random = new Random(5);
    long[] sizes = new long[30 * columns];
    boolean[] flags = new boolean[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = 40;
      flags[i] = random.nextBoolean();
    }
    SkipShapes shapes = skipAll(stringChunks(columns, sizes, flags, random), columns);
    assertTrue(shapes.learned() < 20, "shapes learned: " + shapes.learned());
  }

  /** Chunk i of column {@code i % columns} as {@link #stringChunk} writes it, with bounds of 1 to 12 bytes. */
  private static byte[] stringChunks(int columns, long[] sizes, boolean[] flags, Random random) {
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, sizes.length);
    for (int i = 0; i < sizes.length; i++) {
      stringChunk(w, 4 + 1000L * i, "c" + (10 + i % columns), 1 + random.nextInt(12), 1 + random.nextInt(12),
          sizes[i], flags[i], 5);
    }
    return w.stop().bytes();
  }

  /**
   * Columns whose size is one varint byte in some row groups and two in others (pyarrow's
   * unencoded string bytes near 64): once each layout has been seen, a chunk of the other layout
   * takes the fork at that byte instead of failing its column's latest shape, and ends where the
   * walk ends; a shape is learned per layout, not per chunk.
   */
  @Test
  void aSizeOneVarintByteLongerTakesAFork() throws ParquetCorruptionException {
    int columns = 20;
    Random random = new Random(5);
    long[] sizes = new long[30 * columns];
    boolean[] flags = new boolean[sizes.length];
    int switches = 0;
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = random.nextBoolean() ? 70 : 40; // zigzag 140 or 80
      flags[i] = true;
      switches += i >= columns && sizes[i] != sizes[i - columns] ? 1 : 0;
    }
    SkipShapes shapes = skipAll(stringChunks(columns, sizes, flags, random), columns);
    assertTrue(shapes.forksTaken() > switches / 2, "forks taken: " + shapes.forksTaken() + " of " + switches);
    assertTrue(shapes.learned() < 20, "shapes learned: " + shapes.learned());
  }

  /**
   * A fork's shape checks the words before the fork's byte too: a chunk of the other layout whose
   * first field header is damaged (a wire type that does not exist, which the walk refuses) must
   * not fit, though its size's varint byte sends it on to the other layout's shape, whose words
   * from the size on fit.
   */
  @Test
  void aForkDoesNotPassOverAWordThatFailedBeforeIt() throws ParquetCorruptionException {
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, 7);
    for (int i = 0; i < 7; i++) {
      sizedChunk(w, i % 2 == 0 ? 40 : 70); // the last one-byte: the column's latest shape
    }
    SkipShapes shapes = skipAll(w.stop().bytes(), 1);
    assertTrue(shapes.forksTaken() > 0, "forks taken: " + shapes.forksTaken());
    CompactWriter two = new CompactWriter().beginStruct().list(1, STRUCT, 2); // the second: bytes for whole words
    byte[] damaged = sizedChunk(sizedChunk(two, 70), 70).stop().bytes();
    int start = 2; // after the field and list headers
    assertEquals(0x16, damaged[start]); // field 1, i64
    damaged[start] = 0x1d; // field 1, wire type 13
    assertEquals(-1, walkEnd(damaged, start, damaged.length));
    assertEquals(-1, shapes.replay(damaged, start, damaged.length, 0));
  }

  /** Eight one-byte i64 fields, then a size (a varint of one byte or two) and a flag: the size's byte is in the third word. */
  private static CompactWriter sizedChunk(CompactWriter w, long size) {
    w.beginStruct();
    for (int id = 1; id <= 8; id++) {
      w.i64(id, 5);
    }
    return w.i64(9, size).bool(10, true).stop();
  }

  /**
   * Forks are cleared where they would lead to a slot another shape takes over: columns whose
   * sizes fork, then more layouts than shapes are kept (a flag of another id each), then the first
   * columns again; every fork still leads to a shape that agrees with its own up to the fork.
   */
  @Test
  void aSlotTakenOverKeepsNoForkToIt() throws ParquetCorruptionException {
    int columns = 20;
    int others = 100;
    int[] order = new int[columns * 10 + others + columns * 5];
    int n = 0;
    for (int i = 0; i < columns * 10; i++) {
      order[n++] = i % columns;
    }
    for (int i = 0; i < others; i++) {
      order[n++] = columns + i;
    }
    for (int i = 0; i < columns * 5; i++) {
      order[n++] = i % columns;
    }
    Random random = new Random(3);
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, order.length);
    for (int c : order) {
      stringChunk(w, 4, c < columns ? "c" + (10 + c) : "other" + c, 1 + random.nextInt(12), 1 + random.nextInt(12),
          random.nextBoolean() ? 70 : 40, true, c < columns ? 5 : 5 + c);
    }
    byte[] b = w.stop().bytes();
    SkipShapes shapes = new SkipShapes(MAX, columns + others);
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, b.length, MAX);
    r.readField(0);
    r.readList("chunks", STRUCT);
    for (int c : order) {
      int start = r.position();
      r.skipChunks(shapes, c, c + 1);
      assertEquals(walkEnd(b, start, b.length), r.position());
    }
    assertTrue(shapes.forksTaken() > columns * 5, "forks taken: " + shapes.forksTaken());
    assertTrue(shapes.replaced() > 30, "shapes replaced: " + shapes.replaced());
    assertTrue(shapes.forksAgree());
  }

  /**
   * Forks among many layouts (names of many lengths, sizes of one to three varint bytes, bounds
   * that change length, flags of eight ids): every chunk, intact or damaged, ends where the walk
   * ends, or is walked.
   */
  @Test
  void forksAmongManyLayoutsEndWhereTheWalkEnds() throws ParquetCorruptionException {
    int columns = 150;
    int rowGroups = 12;
    Random random = new Random(8);
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, rowGroups * columns);
    for (int i = 0; i < rowGroups * columns; i++) {
      int c = i % columns;
      long size = new long[] {40, 70, 9000}[random.nextInt(3)];
      stringChunk(w, 4 + 1000L * i, "c".repeat(1 + c % 40) + c, 1 + random.nextInt(12), random.nextInt(200),
          size, c % 3 != 0, 5 + c % 8); // a flag of another id: another layout
    }
    byte[] b = w.stop().bytes();
    SkipShapes shapes = skipAll(b, columns);
    assertTrue(shapes.forksTaken() > 100, "forks taken: " + shapes.forksTaken());
    List<int[]> chunks = new ArrayList<>();
    ThriftCursor r = new ThriftCursor("x", "test", b, 0, b.length, MAX);
    r.readField(0);
    for (int i = r.readList("chunks", STRUCT) - 1, c = 0; i >= 0; i--, c++) {
      chunks.add(new int[] {r.position(), c % columns});
      r.skip(STRUCT);
    }
    int fitted = damagedReplays(b, chunks, shapes, random, 20000, 0, "forks");
    assertTrue(fitted > 5000, "chunks that fit: " + fitted);
  }

  /**
   * Replays {@code rounds} chunks of {@code footer}, each with {@code minEdits} to {@code minEdits + 2}
   * random bytes set and one in four cut short; each that fits must end where the walk ends.
   * Returns how many fitted.
   */
  private static int damagedReplays(byte[] footer, List<int[]> chunks, SkipShapes shapes, Random random, int rounds,
      int minEdits, String name) {
    int fitted = 0;
    for (int round = 0; round < rounds; round++) {
      int[] chunk = chunks.get(random.nextInt(chunks.size()));
      byte[] b = footer.clone();
      int end = walkEnd(footer, chunk[0], footer.length);
      for (int k = minEdits + random.nextInt(3); k > 0; k--) {
        b[chunk[0] + random.nextInt(end - chunk[0])] = (byte) random.nextInt(256);
      }
      int length = random.nextInt(4) == 0 ? chunk[0] + random.nextInt(end - chunk[0] + 1) : b.length;
      int replayed = shapes.replay(b, chunk[0], length, chunk[1]);
      if (replayed >= 0) {
        assertEquals(walkEnd(b, chunk[0], length), replayed, name + " round " + round);
        fitted++;
      }
    }
    return fitted;
  }

  /**
   * A shape learned from a neighbour's compares each binary's length with the length the
   * neighbour's chunk had, not with whether the neighbour left it free: a name freed where names
   * grow by a digit ("c9", "c10") is fixed again in the next column's shape, so only string
   * bounds, which differ from chunk to chunk, cost a segment.
   */
  @Test
  void aNameFreedWhereNamesGrowIsFixedAgainInTheNextColumnsShape() throws ParquetCorruptionException {
    CompactWriter w = new CompactWriter().beginStruct().list(1, STRUCT, 11);
    for (int c = 0; c < 9; c++) { // the first eight shapes have no reference: they fix every length
      stringChunk(w, 4, "c" + c, 2 + c, 3 + c, 40);
    }
    stringChunk(w, 4, "c10", 1, 1, 40); // no shape fits "c10": learned from c8's, the name and bounds left free
    stringChunk(w, 4, "c11", 5, 6, 70); // a two-byte size: c10's shape does not fit; learned from it
    SkipShapes shapes = skipAll(w.stop().bytes(), 11);
    assertEquals(3, shapes.freeBinaries(9));
    assertEquals(2, shapes.freeBinaries(10));
  }

  @Test
  void everyChunkOfRealFootersEndsWhereTheWalkEnds() throws IOException {
    int files = 0;
    for (Path file : CorpusFiles.goodFiles()) {
      byte[] footer = ThriftCursorTest.footer(file);
      List<int[]> chunks;
      try {
        chunks = chunks(footer);
      } catch (ParquetCorruptionException notEvenTheWalk) {
        continue;
      }
      SkipShapes shapes = learned(footer, chunks);
      for (int[] chunk : chunks) {
        int end = shapes.replay(footer, chunk[0], footer.length, chunk[1]);
        if (end >= 0) {
          assertEquals(walkEnd(footer, chunk[0], footer.length), end, file + " chunk at " + chunk[0]);
        }
      }
      files++;
    }
    assertTrue(files > 20, "footers: " + files);
  }

  @Test
  void damagedAndTruncatedChunksFitAShapeOnlyWhereTheWalkAgrees() throws IOException {
    Random random = new Random(11);
    int fitted = 0;
    for (String name : List.of("alltypes_tiny_pages.parquet", "nested_maps.snappy.parquet",
        "datapage_v2.snappy.parquet", "alltypes_plain.parquet")) {
      byte[] footer = ThriftCursorTest.footer(name);
      List<int[]> chunks = chunks(footer);
      fitted += damagedReplays(footer, chunks, learned(footer, chunks), random, 3000, 1, name);
    }
    assertTrue(fitted > 1000, "damaged chunks that still fit (value bytes changed): " + fitted);
  }
}
