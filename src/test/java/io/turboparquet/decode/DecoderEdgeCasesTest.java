package io.turboparquet.decode;

import static io.turboparquet.decode.DecodeTestSupport.OFFSET;
import static io.turboparquet.decode.DecodeTestSupport.le;
import static io.turboparquet.decode.MalformedInputTest.deltaHeader;
import static io.turboparquet.decode.MalformedInputTest.zigzag;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Writer configurations and layouts the shape matrix does not reach. */
class DecoderEdgeCasesTest {
  private final TrackingBufferSource source = new TrackingBufferSource();

  @AfterEach
  void nothingLeaked() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  /** Block size / miniblocks: 1024 values per miniblock spans several internal refills. */
  static Stream<Arguments> deltaConfigs() {
    return Stream.of(Arguments.of(128, 4), Arguments.of(256, 8), Arguments.of(128, 1), Arguments.of(2048, 2));
  }

  @ParameterizedTest
  @MethodSource("deltaConfigs")
  void deltaBinaryPackedWithOtherBlockLayouts(int blockSize, int miniblocks) {
    Random r = new Random(blockSize + miniblocks);
    int n = 10_000 + r.nextInt(500);
    List<byte[]> ints = new ArrayList<>();
    List<byte[]> longs = new ArrayList<>();
    ValuesWriter wi = new DeltaBinaryPackingValuesWriterForInteger(blockSize, miniblocks, 1024, 1 << 20, DecodeTestSupport.HEAP);
    ValuesWriter wl = new DeltaBinaryPackingValuesWriterForLong(blockSize, miniblocks, 1024, 1 << 20, DecodeTestSupport.HEAP);
    for (int i = 0; i < n; i++) {
      // Stretches of small, large and zero deltas, so miniblock bit widths vary.
      int vi = (i / 300) % 3 == 0 ? r.nextInt(1 << (i % 20)) : (i / 300) % 3 == 1 ? r.nextInt() : 42;
      long vl = (i / 300) % 3 == 0 ? i * 1_000_000_007L : (i / 300) % 3 == 1 ? r.nextLong() : -42;
      wi.writeInteger(vi);
      wl.writeLong(vl);
      ints.add(le(vi));
      longs.add(le(vl));
    }
    byte[] intSection = DecodeTestSupport.bytes(wi.getBytes());
    byte[] longSection = DecodeTestSupport.bytes(wl.getBytes());
    for (int batch : DecodeTestSupport.BATCHES) {
      for (boolean skips : new boolean[] {false, true}) {
        DecodeTestSupport.decodeAndCheck(Decoders.create(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null), intSection,
            ints, 4, batch, skips, source);
        DecodeTestSupport.decodeAndCheck(Decoders.create(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT64, 0, null), longSection,
            longs, 8, batch, skips, source);
      }
    }
  }

  @Test
  void deltaLastMiniblockCutShortAfterTheLastValue() {
    // 3 values, width 8: deltas 1 and 2 need 2 bytes; the other 30 bytes of the miniblock are absent.
    byte[] section = concat(deltaHeader(128, 4, 3, 5), zigzag(10), new byte[] {8, 0, 0, 0}, new byte[] {1, 2});
    List<byte[]> expected = List.of(le(5), le(16), le(28));
    for (int batch : DecodeTestSupport.BATCHES) {
      DecodeTestSupport.decodeAndCheck(Decoders.create(Encoding.DELTA_BINARY_PACKED, PhysicalType.INT32, 0, null), section,
          expected, 4, batch, false, source);
    }
  }

  @Test
  void deltaByteArrayOfEmptyAndVeryLongValues() {
    Random r = new Random(7);
    List<byte[]> values = new ArrayList<>();
    DeltaByteArrayWriter w = new DeltaByteArrayWriter(1024, 1 << 22, DecodeTestSupport.HEAP);
    byte[] big = TestValues.randomBytes(r, 70_000);
    for (int i = 0; i < 300; i++) {
      byte[] v = switch (i % 4) {
        case 0 -> new byte[0];
        case 1 -> big.clone();
        case 2 -> java.util.Arrays.copyOf(big, 70_000 - i); // a long shared prefix, shorter
        default -> { byte[] c = big.clone(); c[69_999] = (byte) i; yield c; }
      };
      w.writeBytes(org.apache.parquet.io.api.Binary.fromConstantByteArray(v));
      values.add(v);
    }
    byte[] section = DecodeTestSupport.bytes(w.getBytes());
    for (int batch : new int[] {1, 100, DecodeTestSupport.ALL}) {
      DecodeTestSupport.decodeAndCheck(Decoders.create(Encoding.DELTA_BYTE_ARRAY, PhysicalType.BYTE_ARRAY, 0, null), section,
          values, ValueSink.VARIABLE, batch, true, source);
    }
  }

  /** Dictionary and data pages exactly as parquet-java's own dictionary writers produce them. */
  @ParameterizedTest
  @MethodSource("dictionaryWriterCases")
  void parquetJavaDictionaryWriters(boolean binary, int distinct) throws Exception {
    Random r = new Random(distinct);
    var dataEncoding = org.apache.parquet.column.Encoding.RLE_DICTIONARY;
    var dictEncoding = org.apache.parquet.column.Encoding.PLAIN;
    org.apache.parquet.column.values.dictionary.DictionaryValuesWriter w = binary
        ? new org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(
            1 << 20, dataEncoding, dictEncoding, DecodeTestSupport.HEAP)
        : new org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter(
            1 << 20, dataEncoding, dictEncoding, DecodeTestSupport.HEAP);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      int key = r.nextInt(distinct);
      if (binary) {
        byte[] v = ("value-" + key + "-" + "x".repeat(key % 17)).getBytes();
        w.writeBytes(org.apache.parquet.io.api.Binary.fromConstantByteArray(v));
        values.add(v);
      } else {
        w.writeInteger(key * 7919 - 100_000);
        values.add(le(key * 7919 - 100_000));
      }
    }
    byte[] section = DecodeTestSupport.bytes(w.getBytes());
    org.apache.parquet.column.page.DictionaryPage dp = w.toDictPageAndClose();
    byte[] dictBytes = DecodeTestSupport.bytes(dp.getBytes());
    PhysicalType type = binary ? PhysicalType.BYTE_ARRAY : PhysicalType.INT32;
    ByteBuf dictPage = DecodeTestSupport.page(dictBytes);
    try (Dictionary dict = Dictionary.read(dictPage, OFFSET, dictBytes.length, dp.getDictionarySize(), type, 0, source)) {
      long seen = values.stream().map(java.util.HexFormat.of()::formatHex).distinct().count();
      assertEquals(seen, dict.size());
      for (int batch : DecodeTestSupport.BATCHES) {
        DecodeTestSupport.decodeAndCheck(Decoders.create(Encoding.RLE_DICTIONARY, type, 0, dict), section, values,
            binary ? ValueSink.VARIABLE : 4, batch, true, source);
      }
    } finally {
      dictPage.release();
    }
  }

  static Stream<Arguments> dictionaryWriterCases() {
    return Stream.of(Arguments.of(false, 1), Arguments.of(false, 100), Arguments.of(false, 4000),
        Arguments.of(true, 1), Arguments.of(true, 300));
  }

  @Test
  void dictionaryPageWithNoIndexBytesForANullOnlyPage() {
    ByteBuf dictPage = DecodeTestSupport.page(concat(leFloat(1.5f), leFloat(2.5f)));
    ByteBuf page = DecodeTestSupport.page(new byte[0]);
    try (Dictionary dict = Dictionary.read(dictPage, OFFSET, 8, 2, PhysicalType.FLOAT, 0, source);
        ValueSink sink = new ValueSink(source, 4)) {
      ValuesDecoder d = Decoders.create(Encoding.RLE_DICTIONARY, PhysicalType.FLOAT, 0, dict);
      d.init(page, OFFSET, 0, 0);
      d.read(sink, 0);
      d.skip(0);
      assertEquals(0, sink.position());
      // Bit width 0 with a dictionary of one: a single RLE run of index 0.
      ByteBuf one = DecodeTestSupport.page(TestEncoders.indexSection(0, new int[] {0, 0, 0}));
      try {
        d.init(one, OFFSET, one.capacity() - OFFSET - DecodeTestSupport.TAIL, 3);
        d.read(sink, 3);
        assertEquals(1.5f, Float.intBitsToFloat(sink.values().getIntLE(8)));
      } finally {
        one.release();
      }
    } finally {
      dictPage.release();
      page.release();
    }
  }

  @Test
  void plainBooleanReadsStartingMidByte() {
    // 0b10110101, 0b00000001 : values 1,0,1,0,1,1,0,1, 1
    byte[] section = {(byte) 0xB5, 0x01};
    ByteBuf page = DecodeTestSupport.page(section);
    try (ValueSink sink = new ValueSink(source, 1)) {
      ValuesDecoder d = Decoders.create(Encoding.PLAIN, PhysicalType.BOOLEAN, 0, null);
      d.init(page, OFFSET, 2, 9);
      d.skip(3);
      d.read(sink, 6);
      byte[] out = new byte[6];
      sink.values().getBytes(0, out);
      assertEquals(List.of(0, 1, 1, 0, 1, 1), toList(out));
    } finally {
      page.release();
    }
  }

  private static List<Integer> toList(byte[] b) {
    List<Integer> out = new ArrayList<>();
    for (byte x : b) {
      out.add((int) x);
    }
    return out;
  }

  private static byte[] leFloat(float f) {
    return DecodeTestSupport.le(Float.floatToRawIntBits(f));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
