package io.turboparquet.decode;

import static io.turboparquet.format.Encoding.BYTE_STREAM_SPLIT;
import static io.turboparquet.format.Encoding.DELTA_BINARY_PACKED;
import static io.turboparquet.format.Encoding.DELTA_BYTE_ARRAY;
import static io.turboparquet.format.Encoding.DELTA_LENGTH_BYTE_ARRAY;
import static io.turboparquet.format.Encoding.PLAIN;
import static io.turboparquet.format.Encoding.PLAIN_DICTIONARY;
import static io.turboparquet.format.Encoding.RLE;
import static io.turboparquet.format.Encoding.RLE_DICTIONARY;
import static io.turboparquet.format.PhysicalType.BOOLEAN;
import static io.turboparquet.format.PhysicalType.BYTE_ARRAY;
import static io.turboparquet.format.PhysicalType.DOUBLE;
import static io.turboparquet.format.PhysicalType.FIXED_LEN_BYTE_ARRAY;
import static io.turboparquet.format.PhysicalType.FLOAT;
import static io.turboparquet.format.PhysicalType.INT32;
import static io.turboparquet.format.PhysicalType.INT64;
import static io.turboparquet.format.PhysicalType.INT96;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every supported encoding x type, on every value shape, encoded by parquet-java and decoded in
 * batches of 1, 7, 100 and all, with and without interleaved skips.
 */
class ValuesDecodersTest {

  record Combo(Encoding encoding, PhysicalType type, int typeLength) {
    @Override
    public String toString() {
      return encoding + " " + type + (type == FIXED_LEN_BYTE_ARRAY ? "(" + typeLength + ")" : "");
    }
  }

  static final List<Combo> COMBOS = List.of(
      new Combo(PLAIN, BOOLEAN, 0), new Combo(PLAIN, INT32, 0), new Combo(PLAIN, INT64, 0), new Combo(PLAIN, FLOAT, 0),
      new Combo(PLAIN, DOUBLE, 0), new Combo(PLAIN, INT96, 0), new Combo(PLAIN, FIXED_LEN_BYTE_ARRAY, 3),
      new Combo(PLAIN, FIXED_LEN_BYTE_ARRAY, 16), new Combo(PLAIN, BYTE_ARRAY, 0),
      new Combo(RLE, BOOLEAN, 0),
      new Combo(RLE_DICTIONARY, INT32, 0), new Combo(RLE_DICTIONARY, INT64, 0), new Combo(RLE_DICTIONARY, FLOAT, 0),
      new Combo(PLAIN_DICTIONARY, DOUBLE, 0), new Combo(PLAIN_DICTIONARY, INT96, 0),
      new Combo(RLE_DICTIONARY, FIXED_LEN_BYTE_ARRAY, 5), new Combo(RLE_DICTIONARY, BYTE_ARRAY, 0),
      new Combo(PLAIN_DICTIONARY, BYTE_ARRAY, 0),
      new Combo(DELTA_BINARY_PACKED, INT32, 0), new Combo(DELTA_BINARY_PACKED, INT64, 0),
      new Combo(DELTA_LENGTH_BYTE_ARRAY, BYTE_ARRAY, 0),
      new Combo(DELTA_BYTE_ARRAY, BYTE_ARRAY, 0), new Combo(DELTA_BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, 7),
      new Combo(BYTE_STREAM_SPLIT, FLOAT, 0), new Combo(BYTE_STREAM_SPLIT, DOUBLE, 0), new Combo(BYTE_STREAM_SPLIT, INT32, 0),
      new Combo(BYTE_STREAM_SPLIT, INT64, 0), new Combo(BYTE_STREAM_SPLIT, FIXED_LEN_BYTE_ARRAY, 3));

  static Stream<Arguments> cases() {
    return COMBOS.stream().flatMap(c -> TestValues.SHAPES.stream().map(s -> Arguments.of(c, s)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void decodesWhatParquetJavaWrites(Combo combo, String shape) {
    decodeAndCheckAll(combo, TestValues.of(combo.type(), combo.typeLength(), shape));
  }

  static Stream<Integer> shortLengths() {
    return Stream.iterate(0, n -> n <= 40, n -> n + 1);
  }

  /**
   * Dictionary strings of at most {@code max} bytes, around the slot sizes (8, 16, 24, 32 bytes)
   * of the gather for short dictionary entries and past them.
   */
  @ParameterizedTest(name = "longest {0}")
  @MethodSource("shortLengths")
  void dictionaryStringsUpToEveryShortLength(int max) {
    java.util.Random r = new java.util.Random(max);
    List<byte[]> entries = new java.util.ArrayList<>();
    entries.add(TestValues.filled(max, 'x'));
    for (int i = 0; i < 20; i++) {
      byte[] e = new byte[r.nextInt(max + 1)];
      r.nextBytes(e);
      entries.add(e);
    }
    List<byte[]> values = new java.util.ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      values.add(entries.get(r.nextInt(entries.size())));
    }
    decodeAndCheckAll(new Combo(RLE_DICTIONARY, BYTE_ARRAY, 0), values);
  }

  private static void decodeAndCheckAll(Combo combo, List<byte[]> values) {
    TestEncoders.Encoded encoded = TestEncoders.encode(combo.encoding(), combo.type(), combo.typeLength(), values);
    int width = combo.type() == BOOLEAN ? 1 : TestValues.width(combo.type(), combo.typeLength());
    TrackingBufferSource source = new TrackingBufferSource();
    Dictionary dictionary = DecodeTestSupport.dictionary(encoded, combo.type(), combo.typeLength(), source);
    if (dictionary != null) {
      assertEquals(encoded.dictionarySize(), dictionary.size());
    }
    try {
      for (int batch : DecodeTestSupport.BATCHES) {
        for (boolean skips : new boolean[] {false, true}) {
          ValuesDecoder decoder = Decoders.create(combo.encoding(), combo.type(), combo.typeLength(), dictionary);
          DecodeTestSupport.decodeAndCheck(decoder, encoded.section(), values, width, batch, skips, source);
          if (batch == DecodeTestSupport.ALL) { // a decoder re-initialised for the next page starts afresh
            DecodeTestSupport.decodeAndCheck(decoder, encoded.section(), values, width, 7, !skips, source);
          }
        }
      }
    } finally {
      if (dictionary != null) {
        dictionary.close();
      }
    }
    assertEquals(0, source.outstanding(), "buffers leaked");
    assertTrue(values.isEmpty() || source.allocations() > 0, "the sink allocated from the source");
  }
}
