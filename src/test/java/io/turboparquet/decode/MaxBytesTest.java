package io.turboparquet.decode;

import static io.turboparquet.format.Encoding.DELTA_BYTE_ARRAY;
import static io.turboparquet.format.Encoding.DELTA_LENGTH_BYTE_ARRAY;
import static io.turboparquet.format.Encoding.PLAIN;
import static io.turboparquet.format.Encoding.PLAIN_DICTIONARY;
import static io.turboparquet.format.Encoding.RLE_DICTIONARY;
import static io.turboparquet.format.PhysicalType.BYTE_ARRAY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.Encoding;
import io.turboparquet.io.TrackingBufferSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ValuesDecoder#maxBytes} of every BYTE_ARRAY decoder, on parquet-java's encodings of strings
 * of mixed lengths read in steps of varying size: never below the bytes the next n values add,
 * non-decreasing in n, exact where the decoder knows the lengths (PLAIN up to 64 values, the DELTA
 * encodings), and asking never consumes (the values read afterwards are the right ones). Also the
 * sink's carry-over: {@link ValueSink#appendFrom} and {@link ValueSink#truncate}.
 */
class MaxBytesTest {
  @ParameterizedTest
  @EnumSource(value = Encoding.class, names = {"PLAIN", "PLAIN_DICTIONARY", "RLE_DICTIONARY",
      "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"})
  void boundsTheBytesOfTheNextValues(Encoding encoding) {
    Random r = new Random(encoding.ordinal());
    List<byte[]> entries = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      byte[] e = new byte[i % 10 == 0 ? r.nextInt(20_000) : r.nextInt(40)];
      r.nextBytes(e);
      entries.add(e);
    }
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      values.add(entries.get(r.nextInt(entries.size())));
    }
    TestEncoders.Encoded encoded = TestEncoders.encode(encoding, BYTE_ARRAY, 0, values);
    TrackingBufferSource source = new TrackingBufferSource();
    Dictionary dictionary = DecodeTestSupport.dictionary(encoded, BYTE_ARRAY, 0, source);
    ByteBuf page = DecodeTestSupport.page(encoded.section());
    boolean exactDelta = encoding == DELTA_LENGTH_BYTE_ARRAY || encoding == DELTA_BYTE_ARRAY;
    int exactCases = 0;
    try (ValueSink sink = new ValueSink(source, ValueSink.VARIABLE)) {
      ValuesDecoder d = Decoders.create(encoding, BYTE_ARRAY, 0, dictionary);
      d.init(page, DecodeTestSupport.OFFSET, encoded.section().length, values.size());
      int done = 0;
      while (done < values.size()) {
        int kind = r.nextInt(4); // one value, up to 64, or up to 600
        int n = Math.min(values.size() - done, kind == 0 ? 1 : 1 + r.nextInt(kind == 1 ? 64 : 600));
        long actual = 0;
        for (int i = done; i < done + n; i++) {
          actual += values.get(i).length;
        }
        long bound = d.maxBytes(n);
        String what = encoding + " " + n + " values at " + done;
        assertTrue(bound >= actual, what + ": bound " + bound + " below " + actual);
        assertTrue(d.maxBytes(Math.max(0, n - 1)) <= bound, what + ": not monotone");
        if ((encoding == PLAIN && n <= 64) || (encoding == DELTA_BYTE_ARRAY) || (exactDelta && n == 1)) {
          assertEquals(actual, bound, what + ": exact");
          exactCases++;
        }
        if (encoding == RLE_DICTIONARY || encoding == PLAIN_DICTIONARY) {
          assertEquals((long) n * dictionary.maxLength(), bound, what);
        }
        int before = sink.dataLength();
        d.read(sink, n);
        assertEquals(actual, sink.dataLength() - before, what + ": bytes read");
        done += n;
      }
      assertEquals(0, d.maxBytes(1), "nothing left");
      DecodeTestSupport.assertSink(sink, values);
    } finally {
      page.release();
      if (dictionary != null) {
        dictionary.close();
      }
    }
    assertTrue(encoding == RLE_DICTIONARY || encoding == PLAIN_DICTIONARY || exactCases > 5,
        "exact cases: " + exactCases);
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  @Test
  void carriesValuesFromOneSinkToAnother() {
    TrackingBufferSource source = new TrackingBufferSource();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      values.add(TestValues.filled(i % 17 == 0 ? 0 : i % 50, (char) ('a' + i % 26)));
    }
    try (ValueSink a = new ValueSink(source, ValueSink.VARIABLE);
        ValueSink carry = new ValueSink(source, ValueSink.VARIABLE);
        ValueSink fixed = new ValueSink(source, 4);
        ValueSink fixedCarry = new ValueSink(source, 4)) {
      for (byte[] v : values) {
        a.reserveVariable(1, v.length);
        a.appendBinary(v, 0, v.length);
        fixed.reserve(1).setIntLE(fixed.writeIndex(), v.length);
        fixed.advance(1);
      }
      long bytesOf100 = a.byteSizeAt(100);
      carry.appendFrom(a, 100, 300);
      a.truncate(100);
      assertEquals(bytesOf100, a.byteSize());
      DecodeTestSupport.assertSink(a, values.subList(0, 100));
      DecodeTestSupport.assertSink(carry, values.subList(100, 300));
      a.reset();
      a.appendFrom(carry, 0, carry.position());
      a.reserveVariable(1, values.get(0).length);
      a.appendBinary(values.get(0), 0, values.get(0).length);
      List<byte[]> expected = new ArrayList<>(values.subList(100, 300));
      expected.add(values.get(0));
      DecodeTestSupport.assertSink(a, expected);

      fixedCarry.appendFrom(fixed, 250, 300);
      fixed.truncate(250);
      assertEquals(250 * 4, fixed.byteSize());
      assertEquals(50, fixedCarry.position());
      for (int i = 0; i < 50; i++) {
        assertEquals(values.get(250 + i).length, fixedCarry.values().getIntLE(4 * i));
      }
    }
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  /**
   * A BYTE_ARRAY dictionary without entries bounds its values at 0 bytes, never a negative count
   * (whose error then named a number that changed with the batch size): the indices' own error,
   * index out of range, is what every batch size reports.
   */
  @Test
  void anEmptyBinaryDictionaryBoundsAtZeroBytes() {
    TrackingBufferSource source = new TrackingBufferSource();
    ByteBuf page = source.buffer(16);
    try (Dictionary empty = Dictionary.read(page, 0, 0, 0, BYTE_ARRAY, 0, source)) {
      assertEquals(0, empty.maxLength());
      ByteBuf indices = source.buffer(16);
      indices.writeByte(8).writeByte(2 << 1).writeByte(0); // bit width 8, an RLE run of two 0s
      try (ValueSink sink = new ValueSink(source, ValueSink.VARIABLE)) {
        ValuesDecoder d = Decoders.create(RLE_DICTIONARY, BYTE_ARRAY, 0, empty);
        d.init(indices, 0, 3, 2);
        for (int n = 1; n <= 2; n++) {
          assertEquals(0, d.maxBytes(n), "bound of " + n);
        }
      } finally {
        indices.release();
      }
    } finally {
      page.release();
    }
    assertEquals(0, source.outstanding());
  }
}
