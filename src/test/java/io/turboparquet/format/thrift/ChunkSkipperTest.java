package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BINARY;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.I64;
import static io.turboparquet.format.thrift.CompactReader.LIST;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.FooterOptions.ColumnSelector;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ColumnChunk skipper against the checked walk of {@link CompactReader#skip}: on every chunk
 * of real footers, of hand-built chunks with and without the optional fields, and of damaged and
 * truncated chunks, it ends where the checked walk ends or declines ({@link CompactSkipper#FAIL}).
 */
class ChunkSkipperTest {
  private static final int MAX = FooterOptions.DEFAULT_MAX_STRING_LENGTH;

  @TempDir static Path dir;

  /** Offsets of every ColumnChunk in a footer, found with the checked reader. */
  static List<Integer> chunkStarts(byte[] footer) throws ParquetCorruptionException {
    ArrayCompactReader r = new ArrayCompactReader("x", "footer", footer, 0, footer.length, MAX);
    List<Integer> out = new ArrayList<>();
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = CompactReader.fieldId(f);
      if (last != 4 || CompactReader.fieldType(f) != LIST) {
        r.skip(CompactReader.fieldType(f));
        continue;
      }
      for (int g = CompactReader.listSize(r.readList("row groups")); g > 0; g--) {
        int id = 0;
        for (int h = r.readField(id); h >= 0; h = r.readField(id)) {
          id = CompactReader.fieldId(h);
          if (id != 1 || CompactReader.fieldType(h) != LIST) {
            r.skip(CompactReader.fieldType(h));
            continue;
          }
          for (int c = CompactReader.listSize(r.readList("columns")); c > 0; c--) {
            out.add(r.position());
            r.skip(STRUCT);
          }
        }
      }
    }
    return out;
  }

  /** The skipper on {@code b[0, length)} agrees with the checked walk; returns whether the layout path took it. */
  static boolean assertAgrees(byte[] b, int length, String what) {
    int checked = CompactSkipperTest.checkedEnd(b, length, STRUCT, MAX);
    int fast = ChunkSkipper.skip(b, 0, length, MAX);
    if (fast != CompactSkipper.FAIL) {
      assertEquals(checked, fast, what);
    }
    int layout = ChunkSkipper.layout(b, 0, length, MAX);
    if (layout >= 0) {
      assertEquals(checked, layout, what);
    }
    return layout >= 0;
  }

  static byte[] wideFooter() throws IOException {
    Path file = dir.resolve("wide.parquet");
    if (!file.toFile().exists()) {
      TestFileGenerator.wideInt64(file, 40, 3000, 1024, 16 << 10, 3);
    }
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
    return Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length());
  }

  @Test
  void everyChunkOfRealFootersEndsWhereTheCheckedWalkEnds() throws IOException {
    List<byte[]> footers = new ArrayList<>();
    footers.add(wideFooter());
    for (Path file : CorpusFiles.goodFiles()) {
      FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
      footers.add(Arrays.copyOfRange(f.file(), f.offset(), f.offset() + f.length()));
    }
    int chunks = 0;
    int byLayout = 0;
    for (byte[] footer : footers) {
      List<Integer> starts;
      try {
        starts = chunkStarts(footer);
      } catch (ParquetCorruptionException notEvenChecked) {
        continue;
      }
      for (int s : starts) {
        byte[] rest = Arrays.copyOfRange(footer, s, footer.length);
        int checked = CompactSkipperTest.checkedEnd(rest, rest.length, STRUCT, MAX);
        assertEquals(checked, ChunkSkipper.skip(rest, 0, rest.length, MAX), "chunk at " + s);
        chunks++;
        if (assertAgrees(rest, rest.length, "chunk at " + s)) {
          byLayout++;
        }
      }
    }
    assertTrue(chunks > 1000, "chunks: " + chunks);
    assertTrue(byLayout > chunks / 2, "chunks taken by the layout path: " + byLayout + " of " + chunks);
  }

  @Test
  void damagedAndTruncatedChunksAreSkippedAsTheCheckedWalkDoesOrDeclined() throws IOException {
    byte[] footer = wideFooter();
    List<Integer> starts = chunkStarts(footer);
    Random random = new Random(11);
    int declined = 0;
    int byLayout = 0;
    for (int round = 0; round < 4000; round++) {
      int s = starts.get(random.nextInt(starts.size()));
      byte[] b = Arrays.copyOfRange(footer, s, Math.min(footer.length, s + 200));
      for (int k = 1 + random.nextInt(3); k > 0; k--) {
        b[random.nextInt(100)] = (byte) random.nextInt(256);
      }
      int length = random.nextInt(4) == 0 ? random.nextInt(b.length + 1) : b.length;
      if (assertAgrees(b, length, "round " + round)) {
        byLayout++;
      }
      if (ChunkSkipper.skip(b, 0, length, MAX) == CompactSkipper.FAIL) {
        declined++;
      }
    }
    assertTrue(byLayout > 500 && declined > 500, "layout " + byLayout + ", declined " + declined);
  }

  /** A ColumnChunk as parquet-java writes it, {@code meta} inside ColumnMetaData after data_page_offset. */
  static CompactWriter chunk(Consumer<CompactWriter> meta, Consumer<CompactWriter> after, int... encodings) {
    return chunk(40_100_000, meta, after, encodings);
  }

  /**
   * With {@code compressed} as total_compressed_size: codec ... data_page_offset take 23 bytes
   * with the default, more than the layout's widest window (24) with {@code 1L << 40}.
   */
  static CompactWriter chunk(long compressed, Consumer<CompactWriter> meta, Consumer<CompactWriter> after,
      int... encodings) {
    CompactWriter w = new CompactWriter().beginStruct().i64(2, 4).struct(3);
    w.i32(1, 1).list(2, I32, encodings.length);
    for (int e : encodings) {
      w.rawZigzag(e);
    }
    w.list(3, BINARY, 2).rawString("a").rawString("bc");
    w.i32(4, 0).i64(5, 1_000_000).i64(6, 40_000_000).i64(7, compressed).i64(9, 123_456_789_012L);
    meta.accept(w);
    w.stop();
    after.accept(w);
    w.stop();
    // something after the chunk, as in a footer
    w.beginStruct().string(1, "0123456789".repeat(10)).stop();
    return w;
  }

  static Consumer<CompactWriter> dictionary() {
    return w -> w.i64(11, 99);
  }

  static Consumer<CompactWriter> statistics() {
    return w -> w.struct(12).string(1, "max").string(2, "min").i64(3, 0).string(5, "max").string(6, "min").stop();
  }

  static Consumer<CompactWriter> encodingStats(int n) {
    return w -> {
      w.list(13, STRUCT, n);
      for (int i = 0; i < n; i++) {
        w.beginStruct().i32(1, i).i32(2, 0).i32(3, 1000 + i).stop();
      }
    };
  }

  @Test
  void optionalAndUnusualFieldsAreSkippedWhereTheCheckedWalkEnds() {
    Consumer<CompactWriter> none = w -> { };
    Consumer<CompactWriter> pageIndex = w -> w.i64(4, 1L << 33).i32(5, 300).i64(6, 1L << 34).i32(7, 400);
    List<CompactWriter> chunks = List.of(
        chunk(none, none, 0),
        chunk(1L << 40, statistics(), pageIndex, 0),
        chunk(none, pageIndex, 0, 3, 8),
        chunk(statistics(), pageIndex, 0),
        chunk(statistics().andThen(encodingStats(2)), pageIndex, 0, 8),
        chunk(dictionary().andThen(statistics()).andThen(encodingStats(1)), pageIndex, 2),
        chunk(dictionary().andThen(encodingStats(3)), none, 2),
        chunk(encodingStats(1), pageIndex, 2),
        // bloom filter offset and length, size statistics: after what the layout knows
        chunk(statistics().andThen(encodingStats(1)).andThen(w -> w.i64(14, 7).i32(15, 8).struct(16).i64(1, 5)
            .stop()), pageIndex, 0),
        // page index offsets in another order, an unknown chunk field
        chunk(none, w -> w.i64(6, 1).i32(7, 2).i64(4, 3).i32(5, 4).string(30, "x"), 0),
        // eight encodings (a list header with the high bit set), a long-form field id
        chunk(w -> w.longField(1000, I64).rawZigzag(-1), none, 0, 1, 2, 3, 4, 5, 6, 7));
    int byLayout = 0;
    for (int i = 0; i < chunks.size(); i++) {
      byte[] b = chunks.get(i).bytes();
      int checked = CompactSkipperTest.checkedEnd(b, b.length, STRUCT, MAX);
      assertNotEquals(-1, checked, "chunk " + i + " is valid");
      assertTrue(checked < b.length - 100, "chunk " + i + " ends before what follows it");
      assertEquals(checked, ChunkSkipper.skip(b, 0, b.length, MAX), "chunk " + i);
      if (assertAgrees(b, b.length, "chunk " + i)) {
        byLayout++;
      }
    }
    assertEquals(chunks.size(), byLayout, "every one of these starts as the layout expects");
    // a file_path before file_offset is another layout, walked generically
    byte[] withPath = new CompactWriter().beginStruct().string(1, "other.parquet").i64(2, 4).struct(3).i32(1, 1)
        .stop().stop().beginStruct().string(1, "0123456789".repeat(10)).stop().bytes();
    assertEquals(ChunkSkipper.NOT_THIS_LAYOUT, ChunkSkipper.layout(withPath, 0, withPath.length, MAX));
    assertEquals(CompactSkipperTest.checkedEnd(withPath, withPath.length, STRUCT, MAX),
        ChunkSkipper.skip(withPath, 0, withPath.length, MAX));
  }

  @Test
  void hostileLengthsInTheLayoutAreDeclined() {
    // path_in_schema's string and the encodings list run past the end; a path string above the limit
    byte[] b = chunk(w -> { }, w -> { }, 0).bytes();
    int path = indexOf(b, 0x19, 0x28, 0x01, 'a');
    byte[] longPath = b.clone();
    longPath[path + 2] = 0x7f;
    assertEquals(CompactSkipper.FAIL, ChunkSkipper.skip(longPath, 0, path + 60, MAX));
    assertEquals(-1, CompactSkipperTest.checkedEnd(longPath, path + 60, STRUCT, MAX));
    assertEquals(CompactSkipper.FAIL, ChunkSkipper.skip(b, 0, b.length, 1), "'bc' is longer than 1 byte");
    // 11-byte varints, the chunk well-formed otherwise: file_offset, then an encoding
    assertRefused(longVarintAt(b, 1));
    assertRefused(longVarintAt(b, indexOf(b, 0x19, 0x15, 0x00) + 2));
  }

  /** {@code b} with ten continuation bytes put before the varint at {@code at}. */
  static byte[] longVarintAt(byte[] b, int at) {
    byte[] out = new byte[b.length + 10];
    System.arraycopy(b, 0, out, 0, at);
    Arrays.fill(out, at, at + 10, (byte) 0x80);
    System.arraycopy(b, at, out, at + 10, b.length - at);
    return out;
  }

  private static void assertRefused(byte[] b) {
    assertEquals(-1, CompactSkipperTest.checkedEnd(b, b.length, STRUCT, MAX));
    assertEquals(CompactSkipper.FAIL, ChunkSkipper.skip(b, 0, b.length, MAX));
  }

  @Test
  void aHostileUnprojectedChunkFailsTheDecodeByName() {
    // enough footer after the chunk that the layout path looks at it; path_in_schema claims 127 bytes
    byte[] b = MalformedFooterTest.footer(w -> w.string(6, "x".repeat(80)), w -> { }, 0, 0);
    int path = indexOf(b, 0x19, 0x18, 0x01, 'x');
    b[path + 2] = 0x7f;
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> FooterDecoder.decode(
        "hostile.parquet", 1 << 20, b, 0, b.length, FooterOptions.DEFAULT.withColumns(ColumnSelector.NONE)));
    assertTrue(e.getMessage().startsWith("[hostile.parquet] footer: "), e.getMessage());
    assertTrue(e.getMessage().contains("a skipped binary is 127 bytes long"), e.getMessage());
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
}
