package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.OFFSET;
import static io.turboparquet.decode.DecodeTestSupport.le;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Bytes that contradict their encoding: a DecodeException naming what is wrong, never a hang, OOM or leak. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MalformedInputTest {
  private final TrackingBufferSource source = new TrackingBufferSource();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** Initialises a decoder on {@code section} and runs {@code action} on it with a fresh sink. */
  private void decode(Encoding encoding, PhysicalType type, int typeLength, Dictionary dict, byte[] section, int valueCount,
      DecoderAction action) {
    ByteBuf page = DecodeTestSupport.page(section);
    int width = type == PhysicalType.BYTE_ARRAY ? ValueSink.VARIABLE
        : type == PhysicalType.FIXED_LEN_BYTE_ARRAY ? typeLength : type.fixedWidth();
    try (ValueSink sink = new ValueSink(source, width)) {
      ValuesDecoder d = Decoders.create(encoding, type, typeLength, dict);
      d.init(page, OFFSET, section.length, valueCount);
      action.run(d, sink);
    } finally {
      page.release();
    }
  }

  interface DecoderAction {
    void run(ValuesDecoder d, ValueSink sink);
  }

  private static void assertDecodeException(String messagePart, Executable e) {
    DecodeException ex = assertThrows(DecodeException.class, e);
    assertTrue(ex.getMessage().contains(messagePart), () -> "'" + messagePart + "' not in: " + ex.getMessage());
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] varint(long v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return out.toByteArray();
  }

  static byte[] zigzag(long v) {
    return varint((v << 1) ^ (v >> 63));
  }

  /** A DELTA_BINARY_PACKED header. */
  static byte[] deltaHeader(long blockSize, long miniblocks, long total, long first) {
    return concat(varint(blockSize), varint(miniblocks), varint(total), zigzag(first));
  }

  // ---- PLAIN --------------------------------------------------------------------------------------

  @Test
  void plainFixedSectionTooShort() {
    assertDecodeException("too short", () -> decode(Encoding.PLAIN, PhysicalType.INT64, 0, null, new byte[79], 10, (d, s) -> {}));
    assertDecodeException("too short", () -> decode(Encoding.PLAIN, PhysicalType.BOOLEAN, 0, null, new byte[1], 9, (d, s) -> {}));
  }

  @Test
  void readingPastTheValueCountIsRejected() {
    assertDecodeException("only 2 left", () -> decode(Encoding.PLAIN, PhysicalType.INT32, 0, null, new byte[12], 3, (d, s) -> {
      d.read(s, 1);
      d.read(s, 3);
    }));
  }

  @Test
  void plainByteArrayNegativeLength() {
    byte[] section = concat(le(3), "abc".getBytes(), le(-5), new byte[8]);
    assertDecodeException("negative value length -5", () -> decode(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null, section, 2,
        (d, s) -> d.read(s, 2)));
    assertDecodeException("negative value length -5", () -> decode(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null, section, 2,
        (d, s) -> d.skip(2)));
  }

  @Test
  void plainByteArrayValueRunsPastTheSection() {
    byte[] section = concat(le(3), "abc".getBytes(), le(100), "xy".getBytes());
    assertDecodeException("past the end", () -> decode(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null, section, 2,
        (d, s) -> d.read(s, 2)));
    byte[] cutPrefix = concat(le(4), "abcd".getBytes(), new byte[] {1, 0});
    assertDecodeException("cut off", () -> decode(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null, cutPrefix, 2,
        (d, s) -> d.read(s, 2)));
  }

  // ---- RLE booleans ---------------------------------------------------------------------------

  @Test
  void rleBooleanLengthPrefixBeyondSection() {
    assertDecodeException("length prefix 50", () -> decode(Encoding.RLE, PhysicalType.BOOLEAN, 0, null,
        concat(le(50), new byte[] {0x10, 1}), 8, (d, s) -> {}));
    // A run value of 2 is not a boolean.
    assertDecodeException("does not fit", () -> decode(Encoding.RLE, PhysicalType.BOOLEAN, 0, null,
        concat(le(2), new byte[] {0x10, 2}), 8, (d, s) -> d.read(s, 8)));
  }

  // ---- dictionaries -----------------------------------------------------------------------------

  private Dictionary intDictionary(int size) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < size; i++) {
      out.writeBytes(le(i * 100));
    }
    ByteBuf page = DecodeTestSupport.page(out.toByteArray());
    try {
      return Dictionary.read(page, OFFSET, size * 4, size, PhysicalType.INT32, 0, source);
    } finally {
      page.release();
    }
  }

  @Test
  void dictionaryIndexOutOfRange() {
    try (Dictionary dict = intDictionary(3)) {
      byte[] section = TestEncoders.indexSection(3, new int[] {0, 1, 2, 5, 0, 0, 0, 0});
      assertDecodeException("index 5 is out of range for a dictionary of 3", () -> decode(Encoding.RLE_DICTIONARY,
          PhysicalType.INT32, 0, dict, section, 8, (d, s) -> d.read(s, 8)));
      // The same indices up to the bad one decode fine.
      decode(Encoding.RLE_DICTIONARY, PhysicalType.INT32, 0, dict, section, 8, (d, s) -> {
        d.read(s, 3);
        assertEquals(200, s.values().getIntLE(8));
      });
    }
  }

  @Test
  void stringDictionaryIndexOutOfRange() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String s : new String[] {"a", "bb", "ccc"}) {
      out.writeBytes(le(s.length()));
      out.writeBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    ByteBuf page = DecodeTestSupport.page(out.toByteArray());
    Dictionary dict;
    try {
      dict = Dictionary.read(page, OFFSET, out.size(), 3, PhysicalType.BYTE_ARRAY, 0, source);
    } finally {
      page.release();
    }
    try (dict) {
      byte[] section = TestEncoders.indexSection(3, new int[] {0, 1, 2, 6, 0, 0, 0, 0});
      assertDecodeException("index 6 is out of range for a dictionary of 3", () -> decode(Encoding.RLE_DICTIONARY,
          PhysicalType.BYTE_ARRAY, 0, dict, section, 8, (d, s) -> d.read(s, 8)));
    }
  }

  @Test
  void dictionaryIndexBitWidthAbove32() {
    try (Dictionary dict = intDictionary(3)) {
      assertDecodeException("bit width 40", () -> decode(Encoding.PLAIN_DICTIONARY, PhysicalType.INT32, 0, dict,
          new byte[] {40, 0x02, 0}, 1, (d, s) -> {}));
    }
  }

  @Test
  void dictionaryEncodedPageWithoutDictionary() {
    DecodeException e = assertThrows(DecodeException.class,
        () -> Decoders.create(Encoding.RLE_DICTIONARY, PhysicalType.INT64, 0, null));
    assertEquals("dictionary-encoded page without a dictionary page", e.getMessage());
    try (Dictionary dict = intDictionary(2)) {
      assertDecodeException("INT32 dictionary", () -> Decoders.create(Encoding.PLAIN_DICTIONARY, PhysicalType.FLOAT, 0, dict));
    }
  }

  @Test
  void malformedDictionaryPages() {
    ByteBuf page = DecodeTestSupport.page(concat(le(2), "ab".getBytes(), le(-1), new byte[20]));
    try {
      assertDecodeException("negative value count", () -> Dictionary.read(page, OFFSET, 8, -1, PhysicalType.INT32, 0, source));
      assertDecodeException("too short", () -> Dictionary.read(page, OFFSET, 8, 3, PhysicalType.INT32, 0, source));
      assertDecodeException("too short", () -> Dictionary.read(page, OFFSET, 30, 3, PhysicalType.FIXED_LEN_BYTE_ARRAY, 11, source));
      assertDecodeException("negative value length -1", () -> Dictionary.read(page, OFFSET, 30, 2, PhysicalType.BYTE_ARRAY, 0, source));
      assertDecodeException("cannot hold", () -> Dictionary.read(page, OFFSET, 30, 8, PhysicalType.BYTE_ARRAY, 0, source));
      assertDecodeException("cut off", () -> Dictionary.read(page, OFFSET, 8, 2, PhysicalType.BYTE_ARRAY, 0, source));
      ByteBuf past = DecodeTestSupport.page(concat(le(50), "abcdefgh".getBytes()));
      try {
        assertDecodeException("past the end", () -> Dictionary.read(past, OFFSET, 12, 1, PhysicalType.BYTE_ARRAY, 0, source));
      } finally {
        past.release();
      }
      assertDecodeException("BOOLEAN", () -> Dictionary.read(page, OFFSET, 8, 2, PhysicalType.BOOLEAN, 0, source));
      assertThrows(IndexOutOfBoundsException.class, () -> Dictionary.read(page, OFFSET, 1000, 2, PhysicalType.INT32, 0, source));
      try (Dictionary ok = Dictionary.read(page, OFFSET, 6, 1, PhysicalType.BYTE_ARRAY, 0, source)) {
        assertEquals(1, ok.size());
        assertEquals(2, ok.offsets().getIntLE(4));
      }
      try (Dictionary empty = Dictionary.read(page, OFFSET, 0, 0, PhysicalType.INT64, 0, source)) {
        assertEquals(0, empty.size());
      }
    } finally {
      page.release();
    }
  }

  // ---- DELTA_BINARY_PACKED ----------------------------------------------------------------------

  @Test
  void deltaHeaderWithAbsurdOrInconsistentBlockSize() {
    assertDecodeException("does not split", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null,
        deltaHeader(0x7FFF_FF80L, 0x7FFF_FF80L, 10, 0), 10, (d, s) -> d.read(s, 10)));
    assertDecodeException("not a positive multiple of 128", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null,
        deltaHeader(100, 1, 10, 0), 10, (d, s) -> {}));
    assertDecodeException("not a positive multiple of 128", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null,
        deltaHeader(0, 1, 10, 0), 10, (d, s) -> {}));
    assertDecodeException("exceeds 32 bits", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null,
        deltaHeader(1L << 40, 1, 10, 0), 10, (d, s) -> {}));
    assertDecodeException("does not split", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null,
        deltaHeader(128, 0, 10, 0), 10, (d, s) -> {}));
    assertDecodeException("longer than 10 bytes", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null,
        concat(varint(128), varint(4), varint(10), new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1}), 10, (d, s) -> {}));
  }

  @Test
  void hugeButConsistentBlockSizeCostsNoMemory() {
    // One block of 2^30 values, 1 miniblock, bit width 0: every delta is the min delta, 3.
    byte[] section = concat(deltaHeader(1 << 30, 1, Integer.MAX_VALUE, -7), zigzag(3), new byte[] {0});
    decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null, section, 200_000, (d, s) -> {
      d.skip(100_000);
      d.read(s, 100_000);
      assertEquals(-7 + 3 * 100_000L, s.values().getLongLE(0));
      assertEquals(-7 + 3 * 199_999L, s.values().getLongLE(8 * 99_999));
    });
    // The same with bit width 8 and no data bytes: runs out instead of reading garbage.
    byte[] cut = concat(deltaHeader(1 << 30, 1, Integer.MAX_VALUE, -7), zigzag(3), new byte[] {8, 1, 2});
    assertDecodeException("cut off", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null, cut, 1000,
        (d, s) -> d.read(s, 1000)));
  }

  @Test
  void deltaBitWidthAboveTheTypeAndTruncatedData() {
    byte[] wide = concat(deltaHeader(128, 4, 100, 1), zigzag(0), new byte[] {33, 0, 0, 0}, new byte[33 * 4]);
    assertDecodeException("bit width 33 is above 32", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null,
        wide, 100, (d, s) -> d.read(s, 100)));
    byte[] tooWide = concat(deltaHeader(128, 4, 100, 1), zigzag(0), new byte[] {65, 0, 0, 0}, new byte[65 * 4]);
    assertDecodeException("bit width 65 is above 64", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null,
        tooWide, 100, (d, s) -> d.skip(100)));
    byte[] truncated = concat(deltaHeader(128, 4, 100, 1), zigzag(0), new byte[] {8, 8, 8, 8}, new byte[40]);
    assertDecodeException("cut off", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null,
        truncated, 100, (d, s) -> d.read(s, 100)));
    byte[] noBlock = deltaHeader(128, 4, 100, 1);
    assertDecodeException("cut off", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null,
        noBlock, 100, (d, s) -> d.read(s, 100)));
    assertDecodeException("declares 5 values but the page has 6", () -> decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32,
        0, null, deltaHeader(128, 4, 5, 1), 6, (d, s) -> {}));
  }

  @Test
  void deltaInt32WrapsAround() {
    // first = MAX_VALUE, min delta +1, width 0: MAX, MIN, MIN + 1.
    byte[] section = concat(deltaHeader(128, 4, 3, Integer.MAX_VALUE), zigzag(1), new byte[] {0, 0, 0, 0});
    decode(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null, section, 3, (d, s) -> {
      d.read(s, 3);
      assertEquals(Integer.MAX_VALUE, s.values().getIntLE(0));
      assertEquals(Integer.MIN_VALUE, s.values().getIntLE(4));
      assertEquals(Integer.MIN_VALUE + 1, s.values().getIntLE(8));
    });
  }

  // ---- delta byte arrays ------------------------------------------------------------------------

  /** DELTA_BINARY_PACKED of small non-negative or negative ints, all as one miniblock of width 0 deltas or explicit. */
  static byte[] constantDelta(int count, int value) {
    return concat(deltaHeader(128, 4, count, value), count > 1 ? concat(zigzag(0), new byte[] {0, 0, 0, 0}) : new byte[0]);
  }

  @Test
  void deltaLengthByteArrayLengthsBeyondData() {
    byte[] section = concat(constantDelta(3, 4), "abcdefgh".getBytes());
    assertDecodeException("need 12 bytes but only 8", () -> decode(Encoding.DELTA_LENGTH_BYTE_ARRAY, PhysicalType.BYTE_ARRAY,
        0, null, section, 3, (d, s) -> d.read(s, 3)));
    decode(Encoding.DELTA_LENGTH_BYTE_ARRAY, PhysicalType.BYTE_ARRAY, 0, null, section, 3, (d, s) -> {
      d.skip(1);
      d.read(s, 1);
      assertEquals(4, s.dataLength());
      assertEquals('e', s.values().getByte(0));
    });
    byte[] negative = concat(constantDelta(2, -5), "abcdefgh".getBytes());
    assertDecodeException("negative value length -5", () -> decode(Encoding.DELTA_LENGTH_BYTE_ARRAY, PhysicalType.BYTE_ARRAY,
        0, null, negative, 2, (d, s) -> d.skip(2)));
  }

  @Test
  void deltaByteArrayPrefixLongerThanPreviousValue() {
    // Prefixes all 2, suffixes all 1: the first value has no previous value to share 2 bytes with.
    byte[] section = concat(constantDelta(2, 2), constantDelta(2, 1), "xy".getBytes());
    assertDecodeException("prefix length 2 is outside the previous value's length 0", () -> decode(Encoding.DELTA_BYTE_ARRAY,
        PhysicalType.BYTE_ARRAY, 0, null, section, 2, (d, s) -> d.read(s, 2)));
    byte[] suffixesBeyond = concat(constantDelta(2, 0), constantDelta(2, 3), "xyz".getBytes());
    assertDecodeException("suffixes need 6 bytes but only 3", () -> decode(Encoding.DELTA_BYTE_ARRAY,
        PhysicalType.BYTE_ARRAY, 0, null, suffixesBeyond, 2, (d, s) -> d.skip(2)));
    // FIXED_LEN_BYTE_ARRAY(4) with values of 3 bytes.
    byte[] wrongLength = concat(constantDelta(2, 0), constantDelta(2, 3), "abcdef".getBytes());
    assertDecodeException("value of 3 bytes in a column of type length 4", () -> decode(Encoding.DELTA_BYTE_ARRAY,
        PhysicalType.FIXED_LEN_BYTE_ARRAY, 4, null, wrongLength, 2, (d, s) -> d.read(s, 2)));
    decode(Encoding.DELTA_BYTE_ARRAY, PhysicalType.FIXED_LEN_BYTE_ARRAY, 3, null, wrongLength, 2, (d, s) -> {
      d.read(s, 2);
      assertEquals('d', s.values().getByte(3));
    });
  }

  // ---- BYTE_STREAM_SPLIT ------------------------------------------------------------------------

  @Test
  void byteStreamSplitSectionNotAMultipleOfTheWidth() {
    assertDecodeException("does not split into 8 streams", () -> decode(Encoding.BYTE_STREAM_SPLIT, PhysicalType.DOUBLE, 0,
        null, new byte[20], 2, (d, s) -> {}));
    assertDecodeException("at least 3 values", () -> decode(Encoding.BYTE_STREAM_SPLIT, PhysicalType.FLOAT, 0,
        null, new byte[8], 3, (d, s) -> {}));
  }

  // ---- factory ----------------------------------------------------------------------------------

  @Test
  void unsupportedCombinationsNameEncodingAndType() {
    Object[][] combos = {
        {Encoding.RLE, PhysicalType.INT32}, {Encoding.DELTA_BINARY_PACKED, PhysicalType.FLOAT},
        {Encoding.DELTA_LENGTH_BYTE_ARRAY, PhysicalType.FIXED_LEN_BYTE_ARRAY}, {Encoding.DELTA_BYTE_ARRAY, PhysicalType.INT64},
        {Encoding.BYTE_STREAM_SPLIT, PhysicalType.BOOLEAN}, {Encoding.BYTE_STREAM_SPLIT, PhysicalType.BYTE_ARRAY},
        {Encoding.BIT_PACKED, PhysicalType.INT32}, {Encoding.RLE_DICTIONARY, PhysicalType.BOOLEAN}};
    for (Object[] c : combos) {
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
          () -> Decoders.create((Encoding) c[0], (PhysicalType) c[1], 4, null));
      assertTrue(e.getMessage().contains(c[0].toString()) && e.getMessage().contains(c[1].toString()), e.getMessage());
    }
    assertDecodeException("type length 0", () -> Decoders.create(Encoding.PLAIN, PhysicalType.FIXED_LEN_BYTE_ARRAY, 0, null));
  }
}
