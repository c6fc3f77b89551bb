package io.turboparquet.format.thrift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.BloomFilterLocation;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageIndexLocation;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.WriterFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writers put a struct's fields in id order, and the decoder reads them in that order without a
 * dispatch; any other order, and fields it does not know, must decode the same. Each file's footer
 * is written again with every struct's fields reversed, or with an unknown field (of each wire
 * type in turn) before every field, and must then decode as parquet-format decodes those bytes
 * ({@link FooterEquivalenceTest#check}: the model, statistics, projections, page headers and
 * page indexes); the structs outside the footer (page headers, page indexes, bloom filter headers)
 * likewise, each rewritten alone.
 */
class FieldOrderTest {
  @TempDir static Path dir;

  static Stream<Path> files() {
    List<Path> files = new ArrayList<>(WriterFiles.all());
    for (Path file : CorpusFiles.all()) {
      String name = file.getFileName().toString();
      if (name.contains("page_index") || name.contains("bloom") || name.equals("alltypes_plain.parquet")
          || name.contains("nested") || name.startsWith("datapage_v2")) {
        files.add(file);
      }
    }
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("files")
  void reversedFields(Path file) throws IOException {
    check(file, true, false);
  }

  @ParameterizedTest
  @MethodSource("files")
  void unknownFieldsBeforeEveryField(Path file) throws IOException {
    check(file, false, true);
  }

  private static void check(Path file, boolean reverse, boolean unknown) throws IOException {
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
    Rewriter rewriter = new Rewriter(f.file(), f.offset(), reverse, unknown);
    byte[] footer = rewriter.struct();
    assertEquals(f.offset() + f.length(), rewriter.p, file + ": the rewriter read the whole footer");
    assertNotEquals(ByteBuffer.wrap(f.file(), f.offset(), f.length()), ByteBuffer.wrap(footer), file.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(f.file(), 0, f.offset());
    out.write(footer);
    out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length).array());
    out.write(f.file(), f.file().length - 4, 4);
    Path rewritten = dir.resolve((reverse ? "reversed-" : "unknown-") + file.getFileName());
    Files.write(rewritten, out.toByteArray());
    FooterEquivalenceTest.check(rewritten);
  }

  /**
   * Page headers, column and offset indexes and bloom filter headers read their fields in id order
   * too: each, written again alone with its fields reversed or with unknown fields before every
   * field, decodes to the same values as the original bytes (all but the header's own length).
   */
  @ParameterizedTest
  @MethodSource("files")
  void pageStructsInAnyOrder(Path file) throws IOException {
    FooterEquivalenceTest.Footer f = FooterEquivalenceTest.Footer.of(file);
    byte[] b = f.file();
    FileMetadata meta;
    try {
      meta = FooterDecoder.decode(f.name(), b.length, b, f.offset(), f.length());
    } catch (ParquetCorruptionException refused) {
      return; // bad_data: the footer tests cover it
    }
    String name = f.name();
    int structs = 0;
    for (RowGroupMeta rg : meta.rowGroups()) {
      for (ColumnChunkMeta chunk : rg.columns()) {
        long end = chunk.startOffset() + chunk.totalCompressedSize();
        for (long at = chunk.startOffset(); at < end && at < f.offset(); structs++) {
          PageHeaderInfo header = sameInAnyOrder(file + " page header", b, (int) at, b.length - (int) at,
              (bytes, from, length) -> new PageHeaderDecoder(name).read(
                  new ByteArrayInputStream(bytes, from, length), from, "test"));
          at += header.headerLength() + (long) header.compressedSize();
        }
        PageIndexLocation index = chunk.pageIndex();
        if (index != null && index.columnIndexLength() > 0) {
          sameInAnyOrder(file + " column index", b, (int) index.columnIndexOffset(), index.columnIndexLength(),
              (bytes, from, length) -> PageIndexDecoder.readColumnIndex(name, bytes, from, length));
          structs++;
        }
        if (index != null && index.offsetIndexLength() > 0) {
          sameInAnyOrder(file + " offset index", b, (int) index.offsetIndexOffset(), index.offsetIndexLength(),
              (bytes, from, length) -> PageIndexDecoder.readOffsetIndex(name, bytes, from, length));
          structs++;
        }
        BloomFilterLocation bloom = chunk.bloomFilter();
        if (bloom != null) {
          sameInAnyOrder(file + " bloom filter header", b, (int) bloom.offset(), b.length - (int) bloom.offset(),
              (bytes, from, length) -> BloomFilterHeaderDecoder.read(name, "bloom filter", bytes, from, length));
          structs++;
        }
      }
    }
    assertTrue(structs > 0 || meta.numRows() == 0, file + ": no page structs found");
  }

  /** Decodes the struct at {@code bytes[from, from + length)}. */
  @FunctionalInterface
  private interface StructDecoder<T extends Record> {
    T decode(byte[] bytes, int from, int length) throws IOException;
  }

  /**
   * The struct at {@code b[at, at + length)} decoded, after checking that it decodes to the same
   * values (all but a header's own length) written again with its fields reversed, and with
   * unknown fields before every field.
   */
  private static <T extends Record> T sameInAnyOrder(String what, byte[] b, int at, int length,
      StructDecoder<T> decoder) throws IOException {
    T expected = decoder.decode(b, at, length);
    for (boolean reverse : new boolean[] {true, false}) {
      byte[] again = new Rewriter(b, at, reverse, !reverse).struct();
      assertEquals(values(expected, "headerLength"), values(decoder.decode(again, 0, again.length), "headerLength"),
          what + " at " + at + (reverse ? ", reversed" : ", with unknown fields"));
    }
    return expected;
  }

  /** A record's components but those named, arrays and byte strings as lists, for comparing. */
  private static List<Object> values(Record r, String... except) {
    List<Object> out = new ArrayList<>();
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      if (!List.of(except).contains(c.getName())) {
        try {
          out.add(c.getName() + "=" + canonical(c.getAccessor().invoke(r)));
        } catch (ReflectiveOperationException e) {
          throw new AssertionError(e);
        }
      }
    }
    return out;
  }

  private static Object canonical(Object v) {
    if (v instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (v instanceof List<?> list) {
      return list.stream().map(FieldOrderTest::canonical).toList();
    }
    if (v != null && v.getClass().isArray()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < Array.getLength(v); i++) {
        out.add(Array.get(v, i));
      }
      return out;
    }
    return v;
  }

  /** Reads a compact struct and writes it again, its fields reordered or interleaved with unknown ones. */
  private static final class Rewriter {
    private static final int UNKNOWN_ID = 1000;
    private final byte[] b;
    private final boolean reverse;
    private final boolean unknown;
    private int p;
    private int unknownType;

    Rewriter(byte[] b, int p, boolean reverse, boolean unknown) {
      this.b = b;
      this.p = p;
      this.reverse = reverse;
      this.unknown = unknown;
    }

    private record Field(int id, int type, byte[] value) {}

    byte[] struct() {
      List<Field> fields = new ArrayList<>();
      int last = 0;
      while (true) {
        int header = b[p++] & 0xff;
        int type = header & 0x0f;
        if (type == ThriftCursor.STOP) {
          break;
        }
        int id = header >>> 4 == 0 ? (int) unzigzag(varint()) : last + (header >>> 4);
        last = id;
        fields.add(new Field(id, type, value(type)));
      }
      if (reverse) {
        Collections.reverse(fields);
      }
      CompactWriter w = new CompactWriter().beginStruct();
      for (Field field : fields) {
        if (unknown && fields.size() > 1) { // one field on the wire: maybe a union, which holds exactly one
          writeUnknown(w);
        }
        w.field(field.id(), field.type()).raw(field.value());
      }
      return w.stop().bytes();
    }

    /** A field of an id no struct has, each time of the next wire type. */
    private void writeUnknown(CompactWriter w) {
      switch (unknownType++ % 6) {
        case 0 -> w.i64(UNKNOWN_ID, 1L << 40);
        case 1 -> w.string(UNKNOWN_ID, "unknown");
        case 2 -> w.struct(UNKNOWN_ID).i32(1, 7).string(2, "x").stop();
        case 3 -> w.list(UNKNOWN_ID, ThriftCursor.I32, 2).rawZigzag(1).rawZigzag(-1);
        case 4 -> w.bool(UNKNOWN_ID, true);
        default -> w.field(UNKNOWN_ID, ThriftCursor.DOUBLE).raw(0, 0, 0, 0, 0, 0, 0xf0, 0x3f);
      }
    }

    /** A value's bytes, the structs in it rewritten. */
    private byte[] value(int type) {
      int from = p;
      switch (type) {
        case ThriftCursor.BOOLEAN_TRUE, ThriftCursor.BOOLEAN_FALSE -> {
          return new byte[0]; // in the header
        }
        case ThriftCursor.BYTE -> p++;
        case ThriftCursor.I16, ThriftCursor.I32, ThriftCursor.I64 -> varint();
        case ThriftCursor.DOUBLE -> p += 8;
        case ThriftCursor.BINARY -> {
          int n = (int) varint();
          p += n;
        }
        case ThriftCursor.STRUCT -> {
          return struct();
        }
        case ThriftCursor.LIST, ThriftCursor.SET -> {
          int header = b[p++] & 0xff;
          int size = header >>> 4 == 15 ? (int) varint() : header >>> 4;
          int element = header & 0x0f;
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          out.write(b, from, p - from);
          for (int i = 0; i < size; i++) {
            out.writeBytes(element == ThriftCursor.BOOLEAN_TRUE || element == ThriftCursor.BOOLEAN_FALSE
                ? new byte[] {b[p++]} : value(element));
          }
          return out.toByteArray();
        }
        default -> throw new IllegalArgumentException("wire type " + type + " at " + from); // no map in a footer
      }
      byte[] raw = new byte[p - from];
      System.arraycopy(b, from, raw, 0, raw.length);
      return raw;
    }

    private long varint() {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        int x = b[p++];
        v |= (long) (x & 0x7f) << shift;
        if (x >= 0) {
          return v;
        }
      }
    }

    private static long unzigzag(long n) {
      return (n >>> 1) ^ -(n & 1);
    }
  }
}
