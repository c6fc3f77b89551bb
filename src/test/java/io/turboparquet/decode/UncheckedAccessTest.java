package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.le;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.TrackingBufferSource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The decoders' unchecked writes are safe because of checks made once per chunk of values; these
 * are the cases that used to get past them (a gather whose size overflowed, indices whose offset
 * wrapped around 32 bits), each run over direct buffers (the unchecked paths) and heap buffers
 * (the checked fallbacks), which must agree.
 */
class UncheckedAccessTest {
  /** Where pages and sinks live: direct memory takes the unchecked paths, the heap the checked ones. */
  enum Memory {
    DIRECT, HEAP
  }

  private final TrackingBufferSource direct = new TrackingBufferSource();
  private final List<ByteBuf> heapBuffers = new ArrayList<>();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, direct.outstanding(), "direct buffers leaked");
    assertTrue(heapBuffers.stream().allMatch(b -> b.refCnt() == 0), "heap buffers leaked");
  }

  private BufferSource source(Memory memory) {
    return memory == Memory.DIRECT ? direct : capacity -> {
      ByteBuf b = Unpooled.buffer(Math.max(1, capacity));
      heapBuffers.add(b);
      return b;
    };
  }

  private static ByteBuf page(Memory memory, byte[] bytes) {
    return memory == Memory.DIRECT ? DecodeTestSupport.page(bytes) : heapPage(bytes);
  }

  /** As {@link DecodeTestSupport#page} (the section at OFFSET), on the heap. */
  private static ByteBuf heapPage(byte[] section) {
    ByteBuf direct = DecodeTestSupport.page(section);
    try {
      return Unpooled.copiedBuffer(direct);
    } finally {
      direct.release();
    }
  }

  private Dictionary dictionary(Memory memory, PhysicalType type, int typeLength, int size, byte[] plain) {
    ByteBuf page = page(memory, plain);
    try {
      return Dictionary.read(page, DecodeTestSupport.OFFSET, plain.length, size, type, typeLength, source(memory));
    } finally {
      page.release();
    }
  }

  /** An index section: bit width 32, one RLE run of {@code count} times {@code index}. */
  private static byte[] rleIndices(int count, int index) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(32);
    out.writeBytes(MalformedInputTest.varint((long) count << 1));
    out.writeBytes(le(index));
    return out.toByteArray();
  }

  private void gather(Memory memory, Dictionary dict, PhysicalType type, int width, byte[] indices, int count,
      int read, ValueSinkCheck check) {
    ByteBuf page = page(memory, indices);
    try (ValueSink sink = new ValueSink(source(memory), width)) {
      ValuesDecoder d = Decoders.create(Encoding.RLE_DICTIONARY, type, width > 0 ? width : 0, dict);
      d.init(page, DecodeTestSupport.OFFSET, indices.length, count);
      d.read(sink, read);
      check.accept(sink);
    } finally {
      page.release();
    }
  }

  interface ValueSinkCheck {
    void accept(ValueSink sink);
  }

  /**
   * Fixed-width gathers address entry {@code index x width}: 0x15555556 x 12 and 0x10000000 x 16
   * wrap to small offsets inside the dictionary, which once returned another entry's bytes.
   */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void indicesWhoseOffsetWrapsAroundAreRefused(Memory memory) {
    int[][] cases = {{12, 0x15555556}, {12, 0x80000000}, {16, 0x10000000}, {16, 4}, {12, 4}};
    for (int[] c : cases) {
      int width = c[0];
      PhysicalType type = width == 12 ? PhysicalType.INT96 : PhysicalType.FIXED_LEN_BYTE_ARRAY;
      try (Dictionary dict = dictionary(memory, type, width, 4, new byte[4 * width])) {
        DecodeException e = assertThrows(DecodeException.class,
            () -> gather(memory, dict, type, width, rleIndices(8, c[1]), 8, 8, sink -> { }));
        assertTrue(e.getMessage().contains("dictionary index " + Integer.toUnsignedString(c[1])
            + " is out of range for a dictionary of 4"), e.getMessage());
      }
    }
  }

  /** The same gathers with valid indices still return each entry's own bytes. */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void fixedWidthGatherReturnsTheIndexedEntries(Memory memory) {
    byte[] entries = new byte[4 * 12];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = (byte) i;
    }
    try (Dictionary dict = dictionary(memory, PhysicalType.INT96, 12, 4, entries)) {
      gather(memory, dict, PhysicalType.INT96, 12, rleIndices(5, 3), 5, 5, sink -> {
        byte[] got = new byte[5 * 12];
        sink.values().getBytes(0, got);
        for (int i = 0; i < 5; i++) {
          for (int b = 0; b < 12; b++) {
            assertEquals(36 + b, got[i * 12 + b], "value " + i + " byte " + b);
          }
        }
      });
    }
  }

  /**
   * One dictionary entry of 2.2 MB referenced 1,024 times needs 2.2 GB in one batch: the size sum
   * once overflowed an int and the unchecked copy wrote past its buffer (SIGSEGV). Now the sink
   * refuses it before allocating, and a smaller read of the same page is exact.
   */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void gatherLargerThanOneBufferIsRefusedBeforeAllocating(Memory memory) {
    byte[] value = new byte[2_200_000];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 31 + 7);
    }
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    plain.writeBytes(le(value.length));
    plain.writeBytes(value);
    byte[] indices = {0}; // bit width 0: every index is 0
    try (Dictionary dict = dictionary(memory, PhysicalType.BYTE_ARRAY, 0, 1, plain.toByteArray())) {
      DecodeException e = assertThrows(DecodeException.class,
          () -> gather(memory, dict, PhysicalType.BYTE_ARRAY, ValueSink.VARIABLE, indices, 1024, 1024, sink -> { }));
      assertTrue(e.getMessage().contains("more than the " + ValueSink.MAX_BYTES + " one buffer holds"), e.getMessage());
      assertTrue(direct.peakBytes() < 64L << 20, "peak direct bytes " + direct.peakBytes());
      gather(memory, dict, PhysicalType.BYTE_ARRAY, ValueSink.VARIABLE, indices, 1024, 3, sink -> {
        DecodeTestSupport.assertSink(sink, List.of(value, value, value));
      });
    }
  }

  /** PLAIN strings through the unchecked whole-long copies and through the checked appends agree. */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void plainStringsNearTheEndOfTheSection(Memory memory) {
    List<byte[]> values = new ArrayList<>();
    ByteArrayOutputStream section = new ByteArrayOutputStream();
    for (int i = 0; i < 200; i++) {
      byte[] v = ("v" + "x".repeat(i % 70) + i).getBytes(StandardCharsets.UTF_8);
      values.add(v);
      section.writeBytes(le(v.length));
      section.writeBytes(v);
    }
    byte[] bytes = section.toByteArray();
    ByteBuf page = page(memory, bytes);
    try (ValueSink sink = new ValueSink(source(memory), ValueSink.VARIABLE)) {
      ValuesDecoder d = Decoders.create(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null);
      d.init(page, DecodeTestSupport.OFFSET, bytes.length, values.size());
      d.read(sink, 150);
      d.read(sink, 50);
      DecodeTestSupport.assertSink(sink, values);
      byte[] last = new byte[values.get(199).length];
      sink.values().getBytes(sink.dataLength() - last.length, last);
      assertArrayEquals(values.get(199), last);
    } finally {
      page.release();
    }
  }

  /** Reservations are counted in long: a count past one buffer is an error, not a wrapped small buffer. */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void reservationsPastOneBufferAreRefused(Memory memory) {
    try (ValueSink sink = new ValueSink(source(memory), ValueSink.VARIABLE)) {
      assertThrows(DecodeException.class, () -> sink.reserveVariable(10, Integer.MAX_VALUE - 4L));
      assertThrows(DecodeException.class, () -> sink.reserveVariable(10, 5L << 31));
      assertThrows(DecodeException.class, () -> sink.reserveVariable(10, -1));
    }
    try (ValueSink sink = new ValueSink(source(memory), 1 << 20)) {
      assertThrows(DecodeException.class, () -> sink.reserve(4096));
    }
    assertTrue(direct.peakBytes() < 1 << 20, "peak direct bytes " + direct.peakBytes());
  }

  /**
   * Keeping slots moves them down in place, in every width and with runs of every length (the
   * short moves that round up to whole longs, the long ones that copy): the kept values and
   * per-slot bytes, in order, and nothing else; a selection that does not ascend within the
   * position is refused before anything moves.
   */
  @ParameterizedTest
  @EnumSource(Memory.class)
  void keptSlotsMoveToTheFrontInPlace(Memory memory) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(41);
    for (int width : new int[] {1, 2, 4, 8, 12, 16, ValueSink.VARIABLE}) {
      for (double density : new double[] {0.02, 0.5, 0.98}) {
        int n = 3_000;
        List<byte[]> values = new ArrayList<>();
        try (ValueSink sink = new ValueSink(source(memory), width)) {
          for (int i = 0; i < n; i++) {
            byte[] v = new byte[width > 0 ? width : random.nextInt(i % 50 == 0 ? 200 : 20)];
            random.nextBytes(v);
            values.add(v);
            if (width > 0) {
              sink.reserve(1).setBytes(sink.writeIndex(), v);
              sink.advance(1);
            } else {
              sink.appendBinary(v, 0, v.length);
            }
          }
          ByteBuf perSlot = source(memory).buffer(n);
          byte[] bytes = new byte[n];
          for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(200));
          }
          perSlot.setBytes(0, bytes);
          int[] slots = new int[n];
          int kept = 0;
          for (int i = 0; i < n; i++) {
            if (random.nextDouble() < density) {
              slots[kept++] = i;
            }
          }
          sink.keepSlots(slots, kept);
          int nonZero = ValueSink.keepBytes(perSlot, slots, kept);
          String what = memory + " width " + width + " density " + density;
          assertEquals(kept, sink.position(), what);
          int expectedNonZero = 0;
          for (int i = 0; i < kept; i++) {
            byte[] expected = values.get(slots[i]);
            byte[] got = new byte[expected.length];
            if (width > 0) {
              sink.values().getBytes(i * width, got);
            } else {
              int start = sink.offsets().getIntLE(i << 2);
              assertEquals(expected.length, sink.offsets().getIntLE((i + 1) << 2) - start, what + " slot " + i);
              sink.values().getBytes(start, got);
            }
            assertArrayEquals(expected, got, what + " slot " + i + " (was " + slots[i] + ")");
            assertEquals(bytes[slots[i]], perSlot.getByte(i), what + " byte " + i);
            expectedNonZero += bytes[slots[i]] != 0 ? 1 : 0;
          }
          assertEquals(expectedNonZero, nonZero, what);
          if (width < 0) {
            assertEquals(sink.offsets().getIntLE(kept << 2), sink.dataLength(), what);
          }
          int position = sink.position();
          assertThrows(IllegalArgumentException.class, () -> sink.keepSlots(new int[] {1, 1}, 2));
          assertThrows(IllegalArgumentException.class, () -> sink.keepSlots(new int[] {0, position}, 2));
          assertThrows(IllegalArgumentException.class, () -> ValueSink.keepBytes(perSlot, new int[] {-1}, 1));
          assertEquals(position, sink.position(), what + ": a refused selection moved nothing");
          perSlot.release();
        }
      }
    }
  }
}
