package io.turboparquet.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.BufferSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.junit.jupiter.params.provider.Arguments;

/** Shared helpers: encoded bytes placed at an odd offset in a direct buffer, read/skip drivers, sink checks. */
final class DecodeTestSupport {
  static final HeapByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();
  /** Where sections start in their page buffer: non-zero to catch offset bugs. */
  static final int OFFSET = 13;
  /** Bytes after the section: garbage that must never show up in decoded values. */
  static final int TAIL = 29;
  static final int ALL = Integer.MAX_VALUE;
  static final int[] BATCHES = {1, 7, 100, ALL};

  private DecodeTestSupport() {}

  static byte[] bytes(BytesInput input) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      input.writeAllTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A direct buffer holding {@code section} at {@link #OFFSET}, surrounded by 0xA5 garbage. Not
   * leak-aware: the tests run with paranoid leak detection, which records a stack trace on every
   * access to a leak-aware buffer, and pages are read value by value.
   */
  static ByteBuf page(byte[] section) {
    byte[] all = new byte[OFFSET + section.length + TAIL];
    java.util.Arrays.fill(all, (byte) 0xA5);
    System.arraycopy(section, 0, all, OFFSET, section.length);
    ByteBuf buf = PAGES.directBuffer(all.length, all.length);
    buf.writeBytes(all);
    return buf;
  }

  /**
   * The dictionary of {@code encoded} as a column reader builds it, from a page released right after
   * (the dictionary must not depend on it); null when the encoding has none.
   */
  static Dictionary dictionary(TestEncoders.Encoded encoded, PhysicalType type, int typeLength, BufferSource source) {
    if (encoded.dictionaryPage() == null) {
      return null;
    }
    ByteBuf dictPage = page(encoded.dictionaryPage());
    try {
      return Dictionary.read(dictPage, OFFSET, encoded.dictionaryPage().length, encoded.dictionarySize(), type,
          typeLength, source);
    } finally {
      dictPage.release();
    }
  }

  private static final UnpooledByteBufAllocator PAGES = new UnpooledByteBufAllocator(true, true);

  /** Batch sizes x with/without interleaved skips. */
  static Stream<Arguments> batchesAndSkips() {
    return IntStream.of(BATCHES).boxed().flatMap(b -> Stream.of(Arguments.of(b, false), Arguments.of(b, true)));
  }

  /**
   * Reads {@code count} values in batches of {@code batch}, skipping a varying number after each
   * batch when {@code skips}; returns the indices of the values that were read, in order.
   */
  static List<Integer> drive(int count, int batch, boolean skips, ReadOp read, SkipOp skip) {
    List<Integer> readIdx = new ArrayList<>();
    int pos = 0;
    int round = 0;
    int[] skipSizes = {1, 0, 13, batch == ALL ? 3 : batch, 2};
    while (pos < count) {
      int r = Math.min(batch, count - pos);
      read.read(r);
      for (int i = 0; i < r; i++) {
        readIdx.add(pos + i);
      }
      pos += r;
      if (skips && pos < count) {
        int s = Math.min(skipSizes[round % skipSizes.length], count - pos);
        skip.skip(s);
        pos += s;
      }
      round++;
    }
    return readIdx;
  }

  interface ReadOp {
    void read(int n);
  }

  interface SkipOp {
    void skip(int n);
  }

  /**
   * Decodes {@code section} with {@code decoder} in the given pattern into a fresh sink of
   * {@code width} and asserts it holds exactly the expected values of the read indices.
   */
  static void decodeAndCheck(ValuesDecoder decoder, byte[] section, List<byte[]> expected, int width, int batch,
      boolean skips, BufferSource source) {
    ByteBuf page = page(section);
    try (ValueSink sink = new ValueSink(source, width)) {
      decoder.init(page, OFFSET, section.length, expected.size());
      List<Integer> read = drive(expected.size(), batch, skips, n -> decoder.read(sink, n), decoder::skip);
      assertSink(sink, read.stream().map(expected::get).toList());
    } finally {
      page.release();
    }
  }

  static void assertSink(ValueSink sink, List<byte[]> expected) {
    assertEquals(expected.size(), sink.position(), "values in the sink");
    if (sink.isVariableWidth()) {
      ByteBuf offsets = sink.offsets();
      assertEquals(0, offsets.getIntLE(0));
      for (int i = 0; i < expected.size(); i++) {
        int start = offsets.getIntLE(i << 2);
        int end = offsets.getIntLE((i + 1) << 2);
        byte[] actual = new byte[end - start];
        sink.values().getBytes(start, actual);
        assertArrayEquals(expected.get(i), actual, "value " + i);
      }
      assertEquals(sink.dataLength(), offsets.getIntLE(expected.size() << 2));
    } else {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      expected.forEach(all::writeBytes);
      byte[] actual = new byte[sink.position() * sink.width()];
      sink.values().getBytes(0, actual);
      assertArrayEquals(all.toByteArray(), actual);
    }
  }

  static List<byte[]> list(int n, IntFunction<byte[]> value) {
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(value.apply(i));
    }
    return out;
  }

  static byte[] le(int v) {
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }

  static byte[] le(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}
