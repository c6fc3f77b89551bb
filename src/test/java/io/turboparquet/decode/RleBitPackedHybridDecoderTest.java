package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.OFFSET;
import static io.turboparquet.decode.DecodeTestSupport.page;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RleBitPackedHybridDecoderTest {

  static Stream<Arguments> widthsAndShapes() {
    return IntStream.rangeClosed(0, 32).boxed()
        .flatMap(w -> Stream.of("empty", "one", "constant", "random", "mixed").map(s -> Arguments.of(w, s)));
  }

  static int[] shape(int bitWidth, String shape) {
    long max = bitWidth == 0 ? 0 : (1L << bitWidth) - 1;
    Random r = new Random(bitWidth * 31L + shape.hashCode());
    return switch (shape) {
      case "empty" -> new int[0];
      case "one" -> new int[] {(int) max};
      case "constant" -> fill(1000, i -> (int) max);
      case "random" -> fill(1003, i -> (int) (r.nextLong() & max));
      // Runs of varying length (RLE) between noisy stretches (bit-packed), extremes included.
      case "mixed" -> fill(2500, i -> (i / 37) % 3 == 0 ? (int) (r.nextLong() & max) : (i / 37) % 3 == 1 ? (int) max : 0);
      default -> throw new IllegalArgumentException(shape);
    };
  }

  static int[] fill(int n, java.util.function.IntUnaryOperator f) {
    return IntStream.range(0, n).map(f).toArray();
  }

  static byte[] encode(int bitWidth, int[] values) throws IOException {
    RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20, DecodeTestSupport.HEAP);
    for (int v : values) {
      enc.writeInt(v);
    }
    return DecodeTestSupport.bytes(enc.toBytes());
  }

  static Stream<Arguments> levelWidthsAndShapes() {
    return widthsAndShapes().filter(a -> (int) a.get()[0] <= 8);
  }

  /** Levels (bit width 0-8) read as bytes equal parquet-java's values in any batching, mixed with int reads. */
  @ParameterizedTest
  @MethodSource("levelWidthsAndShapes")
  void readsLevelsAsBytes(int bitWidth, String shape) throws IOException {
    int[] values = shape(bitWidth, shape);
    byte[] section = encode(bitWidth, values);
    ByteBuf buf = page(section);
    try {
      for (int batch : DecodeTestSupport.BATCHES) {
        RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
        d.init(buf, OFFSET, section.length, bitWidth);
        int[] actual = new int[values.length];
        byte[] bytes = new byte[values.length];
        int[] ints = new int[values.length];
        int done = 0;
        for (int step = 0; done < values.length; step++) {
          int n = Math.min(batch == DecodeTestSupport.ALL ? values.length : batch + step % 3, values.length - done);
          if (step % 4 == 3) { // now and then through readInts, so both share the run state
            d.readInts(ints, 0, n);
            System.arraycopy(ints, 0, actual, done, n);
          } else {
            d.readLevels(bytes, 0, n);
            for (int i = 0; i < n; i++) {
              actual[done + i] = bytes[i] & 0xFF;
            }
          }
          done += n;
        }
        assertArrayEquals(values, actual, "width " + bitWidth + " " + shape + " batch " + batch);
      }
    } finally {
      buf.release();
    }
  }

  @ParameterizedTest
  @MethodSource("widthsAndShapes")
  void decodesParquetJavaOutputInAnyBatchingWithSkips(int bitWidth, String shape) throws IOException {
    int[] values = shape(bitWidth, shape);
    byte[] section = encode(bitWidth, values);
    ByteBuf buf = page(section);
    try {
      for (int batch : DecodeTestSupport.BATCHES) {
        for (boolean skips : new boolean[] {false, true}) {
          RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
          d.init(buf, OFFSET, section.length, bitWidth);
          List<Integer> expected = new ArrayList<>();
          int[] actual = new int[values.length];
          int[] filled = {0};
          List<Integer> read = DecodeTestSupport.drive(values.length, batch, skips, n -> {
            d.readInts(actual, filled[0], n);
            filled[0] += n;
          }, d::skip);
          read.forEach(i -> expected.add(values[i]));
          assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), Arrays.copyOf(actual, filled[0]),
              "width " + bitWidth + " " + shape + " batch " + batch + " skips " + skips);
        }
      }
    } finally {
      buf.release();
    }
  }

  @Test
  void runningOutOfDataThrows() throws IOException {
    byte[] section = encode(5, fill(20, i -> i));
    ByteBuf buf = page(section);
    try {
      RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
      d.init(buf, OFFSET, section.length, 5);
      int[] out = new int[64];
      // parquet-java pads the final group to 8 values: 24 values are present, 25 are not.
      d.readInts(out, 0, 24);
      assertEquals(19, out[19]);
      DecodeException e = assertThrows(DecodeException.class, () -> d.readInts(out, 24, 1));
      assertTrue(e.getMessage().contains("ran out"), e.getMessage());
    } finally {
      buf.release();
    }
  }

  @Test
  void truncatedBitPackedRunYieldsOnlyCompleteValuesAndNeverReadsPastTheSection() {
    // Header: 1 group, bit-packed; width 8 so each value is one byte; only 3 of 8 bytes present.
    byte[] section = {(byte) 0x03, 10, 20, 30};
    ByteBuf buf = page(section); // the bytes after the section are 0xA5, never to be seen
    try {
      RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
      d.init(buf, OFFSET, section.length, 8);
      int[] out = new int[8];
      d.readInts(out, 0, 3);
      assertArrayEquals(new int[] {10, 20, 30}, Arrays.copyOf(out, 3));
      assertThrows(DecodeException.class, () -> d.readInts(out, 3, 1));

      // Width 12: the third value needs byte 5, which is missing; the first two fit in 3 bytes.
      byte[] twelve = {(byte) 0x03, (byte) 0xFF, (byte) 0x2F, (byte) 0x01, (byte) 0x77};
      ByteBuf buf2 = page(twelve);
      try {
        d.init(buf2, OFFSET, twelve.length, 12);
        d.readInts(out, 0, 2);
        assertEquals(0xFFF & 0x2FFF, out[0]);
        assertEquals(0x012, out[1]);
        assertThrows(DecodeException.class, () -> d.readInts(out, 2, 1));
      } finally {
        buf2.release();
      }
    } finally {
      buf.release();
    }
  }

  @Test
  void sectionEndingAtTheBufferEndIsNeverOverread() {
    // 7 of a group's 8 bytes, and the buffer ends where the section does: any read past it throws.
    byte[] section = {(byte) 0x03, 1, 2, 3, 4, 5, 6, 7};
    ByteBuf buf = io.netty.buffer.Unpooled.directBuffer(OFFSET + section.length, OFFSET + section.length);
    try {
      buf.setBytes(OFFSET, section);
      for (int bitWidth : new int[] {8, 7}) {
        RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
        d.init(buf, OFFSET, section.length, bitWidth);
        int[] out = new int[8];
        d.readInts(out, 0, 7 * 8 / bitWidth);
        assertEquals(bitWidth == 8 ? 7 : 4, out[bitWidth == 8 ? 6 : 1]); // width 7: 8 values fill exactly 7 bytes
        assertThrows(DecodeException.class, () -> d.readInts(out, 0, 1));
      }
    } finally {
      buf.release();
    }
  }

  /** One bit-packed run of 300 groups (other writers are not limited to 63 like parquet-java). */
  @ParameterizedTest
  @MethodSource("longRunWidths")
  void longBitPackedRunsSpanSeveralBulkCopies(int bitWidth) {
    Random r = new Random(bitWidth);
    int groups = 300;
    int[] values = fill(groups * 8, i -> (int) (r.nextLong() & ((1L << bitWidth) - 1)));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.writeBytes(MalformedInputTest.varint((groups << 1) | 1));
    long acc = 0;
    int bits = 0;
    for (int v : values) { // LSB first
      acc |= (v & 0xFFFF_FFFFL) << bits;
      bits += bitWidth;
      while (bits >= 8) {
        out.write((int) acc);
        acc >>>= 8;
        bits -= 8;
      }
    }
    byte[] section = out.toByteArray();
    ByteBuf buf = page(section);
    try {
      RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
      d.init(buf, OFFSET, section.length, bitWidth);
      int[] actual = new int[values.length];
      d.readInts(actual, 0, 5);
      d.readInts(actual, 5, values.length - 5);
      assertArrayEquals(values, actual);
    } finally {
      buf.release();
    }
  }

  static IntStream longRunWidths() {
    return IntStream.of(1, 7, 13, 24, 32);
  }

  @Test
  void hostileRunHeadersAreRejected() {
    RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
    int[] out = new int[16];
    // Varint of 6 bytes.
    assertRejected(d, new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01, 0}, 4, out, "longer than 5");
    // 5-byte varint above 32 bits.
    assertRejected(d, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 0}, 4, out, "exceeds 32 bits");
    // Header cut off in the middle of the varint.
    assertRejected(d, new byte[] {(byte) 0x80}, 4, out, "cut off");
    // RLE value missing.
    assertRejected(d, new byte[] {0x10}, 4, out, "cut off");
    // RLE value wider than the bit width.
    assertRejected(d, new byte[] {0x10, 0x1F}, 4, out, "does not fit");
    // An RLE run of no values before the values asked for (the bytes of a page whose column's
    // definition levels were dropped by an edit read as dictionary indices).
    assertRejected(d, new byte[] {0x00, 0x00, 0x10, 0x03}, 4, out, "RLE run of 0 values");
    // Huge bit-packed group count over 2 bytes of data: only what is present is handed out.
    assertRejected(d, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 0x21, 0x43}, 4, out, "ran out");
    // Empty section.
    assertRejected(d, new byte[0], 4, out, "ran out");
    assertThrows(DecodeException.class, () -> d.init(page(new byte[1]), 0, 1, 33));
  }

  @Test
  void hugeRleCountIsAnUpperBoundNotAnAllocation() {
    // RLE run of 2^31 - 1 copies of 7, 3 bits wide: reading a few and skipping many is fine.
    byte[] section = {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 0x07};
    ByteBuf buf = page(section);
    try {
      RleBitPackedHybridDecoder d = new RleBitPackedHybridDecoder();
      d.init(buf, OFFSET, section.length, 3);
      d.skip(1_000_000_000);
      int[] out = new int[5];
      d.readInts(out, 0, 5);
      assertArrayEquals(new int[] {7, 7, 7, 7, 7}, out);
    } finally {
      buf.release();
    }
  }

  @Test
  void sectionOutsideTheBufferIsRejected() {
    ByteBuf buf = page(new byte[4]);
    try {
      assertThrows(IndexOutOfBoundsException.class, () -> new RleBitPackedHybridDecoder().init(buf, OFFSET, 1000, 3));
    } finally {
      buf.release();
    }
  }

  private static void assertRejected(RleBitPackedHybridDecoder d, byte[] section, int bitWidth, int[] out, String message) {
    ByteBuf buf = page(section);
    try {
      d.init(buf, OFFSET, section.length, bitWidth);
      DecodeException e = assertThrows(DecodeException.class, () -> d.readInts(out, 0, out.length));
      assertTrue(e.getMessage().contains(message), e.getMessage());
    } finally {
      buf.release();
    }
  }
}
