package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.io.BufferSource;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;

/**
 * The uncompressed pages of one column chunk, built in memory, and a {@link PageSource} over them
 * (the arrow-rs InMemoryPageIterator idea): reader tests without a file. Levels and dictionary
 * indices are encoded by parquet-java's RLE / bit-packed hybrid encoder; values are PLAIN, written
 * here. Page bodies come from the test's buffer source when they are handed out, so its leak check
 * covers them. Page {@code i} sits at file offset {@code 100 * (i + 1)}.
 */
final class InMemoryPages implements PageSource {
  static final String FILE = "memory.parquet";

  private record Spec(PageHeaderInfo header, byte[] body, long firstRow, long rows) {}

  private final BufferSource source;
  private final List<Spec> pages = new ArrayList<>();
  private int next;
  private boolean closed;

  InMemoryPages(BufferSource source) {
    this.source = source;
  }

  /** A flat column {@code x}; {@code maxDef} 0 is required, 1 optional. */
  static ColumnDescriptor flat(PhysicalType type, int maxDef) {
    return new ColumnDescriptor(0, List.of("x"), type, 0, maxDef == 0 ? Repetition.REQUIRED : Repetition.OPTIONAL,
        maxDef, 0, null);
  }

  /**
   * {@code optional group a (LIST) { repeated group list { required <type> element } }}: definition
   * level 0 is a null list, 1 an empty one, 2 an element; repetition level 1 continues a list.
   */
  static ColumnDescriptor list(PhysicalType type) {
    return new ColumnDescriptor(0, List.of("a", "list", "element"), type, 0, Repetition.REQUIRED, 2, 1, null);
  }

  static ChunkLocation location(ColumnDescriptor column) {
    return new ChunkLocation(FILE, 0, new ColumnChunkMeta(column, CompressionCodec.UNCOMPRESSED,
        List.of(Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY), 0, 0, 0, 100, -1));
  }

  /** A reader of these pages as {@code column}'s chunk, over a cursor with the default options. */
  BatchReader reader(ColumnDescriptor column, ScanMetrics metrics) {
    PageCursor cursor = new PageCursor(location(column), this, source, ScanOptions.defaults(), metrics);
    return BatchReader.create(location(column), cursor, source);
  }

  /** Closes a reader made by {@link #reader} and its cursor. */
  static void close(BatchReader reader) {
    reader.cursor.close();
    reader.close();
  }

  /** A V1 data page: RLE levels (each with its 4-byte length; none for a maximum of 0), then the values section. */
  InMemoryPages v1(Encoding encoding, int maxRep, int[] reps, int maxDef, int[] defs, byte[] values) {
    int n = maxRep > 0 ? reps.length : maxDef > 0 ? defs.length : -1;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (maxRep > 0) {
      byte[] r = levels(maxRep, reps);
      body.writeBytes(le(r.length));
      body.writeBytes(r);
    }
    if (maxDef > 0) {
      byte[] d = levels(maxDef, defs);
      body.writeBytes(le(d.length));
      body.writeBytes(d);
    }
    body.writeBytes(values);
    return add(PageType.DATA_PAGE, n, encoding, 0, 0, 0, 0, body.toByteArray());
  }

  /** A V1 data page of a required flat column: {@code n} values, no levels. */
  InMemoryPages v1Required(Encoding encoding, int n, byte[] values) {
    return add(PageType.DATA_PAGE, n, encoding, 0, 0, 0, 0, values);
  }

  /** A V2 data page: levels without length prefixes, their lengths, nulls and rows in the header. */
  InMemoryPages v2(Encoding encoding, int maxRep, int[] reps, int maxDef, int[] defs, byte[] values, int numNulls,
      int numRows) {
    byte[] r = maxRep > 0 ? levels(maxRep, reps) : new byte[0];
    byte[] d = maxDef > 0 ? levels(maxDef, defs) : new byte[0];
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(r);
    body.writeBytes(d);
    body.writeBytes(values);
    int n = maxRep > 0 ? reps.length : defs.length;
    return add(PageType.DATA_PAGE_V2, n, encoding, numNulls, numRows, r.length, d.length, body.toByteArray());
  }

  /** A PLAIN dictionary page of {@code n} values. */
  InMemoryPages dictionary(int n, byte[] plainValues) {
    return add(PageType.DICTIONARY_PAGE, n, Encoding.PLAIN, 0, 0, 0, 0, plainValues);
  }

  /** Gives the last page the rows an offset index would: it starts at {@code firstRow} and holds {@code rows}. */
  InMemoryPages indexed(long firstRow, long rows) {
    Spec s = pages.remove(pages.size() - 1);
    pages.add(new Spec(s.header(), s.body(), firstRow, rows));
    return this;
  }

  private InMemoryPages add(PageType type, int n, Encoding encoding, int numNulls, int numRows, int repLen, int defLen,
      byte[] body) {
    Encoding levels = type == PageType.DATA_PAGE ? Encoding.RLE : null;
    pages.add(new Spec(new PageHeaderInfo(type, 20, body.length, body.length, false, 0, n, encoding, levels, levels,
        numNulls, numRows, defLen, repLen, false), body, -1, -1));
    return this;
  }

  @Override
  public Page next() {
    if (next == pages.size()) {
      return null;
    }
    Spec s = pages.get(next++);
    ByteBuf body = source.buffer(Math.max(1, s.body().length));
    body.writeBytes(s.body());
    return new Page(s.header(), body, 100L * next, s.firstRow(), s.rows());
  }

  /** Pages handed out so far. */
  int taken() {
    return next;
  }

  boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }

  // ---- encoders ---------------------------------------------------------------------------------

  /** Levels of maximum {@code max} in the RLE / bit-packed hybrid encoding, without a length prefix. */
  static byte[] levels(int max, int... levels) {
    return hybrid(32 - Integer.numberOfLeadingZeros(max), levels);
  }

  /** A dictionary-encoded values section: the indices' bit width, then the indices in the hybrid encoding. */
  static byte[] dictionaryIndices(int bitWidth, int... ids) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bitWidth);
    out.writeBytes(hybrid(bitWidth, ids));
    return out.toByteArray();
  }

  private static byte[] hybrid(int bitWidth, int... values) {
    try {
      RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20,
          HeapByteBufferAllocator.getInstance());
      for (int v : values) {
        enc.writeInt(v);
      }
      return enc.toBytes().toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** PLAIN INT32 values. */
  static byte[] ints(int... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  /** PLAIN BYTE_ARRAY values: each a 4-byte length, then its UTF-8 bytes. */
  static byte[] strings(String... values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String v : values) {
      byte[] b = v.getBytes(StandardCharsets.UTF_8);
      out.writeBytes(le(b.length));
      out.writeBytes(b);
    }
    return out.toByteArray();
  }

  static byte[] le(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  // ---- reading a batch back ---------------------------------------------------------------------

  /** The batch's INT32 value slots (flat: one per row, nulls 0; nested: the defined values). */
  static int[] intValues(ColumnBatch batch) {
    int n = batch.column().isFlat() ? batch.rowCount() : batch.nonNullCount();
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = batch.values().values().getIntLE(4 * i);
    }
    return out;
  }

  /** The batch's BYTE_ARRAY values as strings (flat: one per row, nulls empty). */
  static String[] stringValues(ColumnBatch batch) {
    int n = batch.column().isFlat() ? batch.rowCount() : batch.nonNullCount();
    String[] out = new String[n];
    ByteBuf offsets = batch.values().offsets();
    ByteBuf data = batch.values().values();
    for (int i = 0; i < n; i++) {
      int from = offsets.getIntLE(4 * i);
      int to = offsets.getIntLE(4 * (i + 1));
      byte[] b = new byte[to - from];
      data.getBytes(from, b);
      out[i] = new String(b, StandardCharsets.UTF_8);
    }
    return out;
  }

  /** {@code count} bytes of {@code buf} as ints (validity or levels). */
  static int[] bytes(ByteBuf buf, int count) {
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = buf.getByte(i);
    }
    return out;
  }
}
