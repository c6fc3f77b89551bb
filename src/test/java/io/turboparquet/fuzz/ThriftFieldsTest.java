package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThriftFieldsTest {
  @Test
  void findsIntegerFieldsLengthsAndNestedFieldsWithTheirIds() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x15); // field 1, i32
    b.writeBytes(ThriftFields.encode(150, true));
    b.write(0x18); // field 2, binary
    b.write(3);
    b.writeBytes("abc".getBytes());
    b.write(0x19); // field 3, list
    b.write(0x25); // 2 x i32
    b.write(2); // zigzag 1
    b.write(4); // zigzag 2
    b.write(0x1c); // field 4, struct
    b.write(0x16); // field 1, i64
    b.writeBytes(ThriftFields.encode(-5, true));
    b.write(0); // end of the inner struct
    b.write(0x05); // long-form header: i32 ...
    b.writeBytes(ThriftFields.encode(20, true)); // ... field 20
    b.write(0x7f);
    b.write(0); // end
    byte[] bytes = b.toByteArray();
    List<ThriftFields.Field> f = ThriftFields.locate(bytes, 0, bytes.length);
    assertEquals(List.of(150L, 3L, 1L, 2L, -5L, -64L), f.stream().map(ThriftFields.Field::value).toList());
    assertEquals(List.of(1, -1, -1, -1, 1, 20), f.stream().map(ThriftFields.Field::id).toList());
    assertEquals(List.of(0, 0, 1, 1, 1, 0), f.stream().map(ThriftFields.Field::depth).toList());
    assertEquals(1, f.get(0).start());
    assertEquals(2, f.get(0).length());
  }

  @Test
  void aTruncatedStructYieldsTheFieldsBeforeTheCut() {
    byte[] bytes = {0x15, 0x02, 0x15, (byte) 0x80};
    assertEquals(List.of(1L), ThriftFields.locate(bytes, 0, bytes.length).stream().map(ThriftFields.Field::value)
        .toList());
  }

  @Test
  void fixedLengthEncodingPadsAndClamps() {
    // 0 in three bytes: redundant continuation bytes.
    assertArrayEquals(new byte[] {(byte) 0x80, (byte) 0x80, 0}, ThriftFields.encodeFixed(0, true, 3));
    for (long v : new long[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 30, Long.MAX_VALUE}) {
      for (int length = 1; length <= 10; length++) {
        byte[] enc = ThriftFields.encodeFixed(v, true, length);
        assertEquals(length, enc.length);
        byte[] struct = new byte[enc.length + 2];
        struct[0] = 0x15;
        System.arraycopy(enc, 0, struct, 1, enc.length);
        long decoded = ThriftFields.locate(struct, 0, struct.length).get(0).value();
        long bound = length >= 10 ? Long.MAX_VALUE : (1L << (7 * length - 1)) - 1;
        long expected = Math.max(-bound - 1, Math.min(bound, v));
        assertEquals(expected, decoded, v + " in " + length + " bytes");
      }
    }
  }
}
