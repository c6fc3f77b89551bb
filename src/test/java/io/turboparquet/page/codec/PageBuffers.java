package io.turboparquet.page.codec;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Small ByteBuf helpers for the codec tests; none of them moves reader or writer indexes. All
 * bulk operations: tests run with paranoid leak detection, which records a stack per access.
 */
final class PageBuffers {
  private PageBuffers() {}

  static void fill(ByteBuf buf, byte value) {
    byte[] fill = new byte[buf.capacity()];
    Arrays.fill(fill, value);
    buf.setBytes(0, fill);
  }

  static byte[] bytes(ByteBuf buf, int index, int length) {
    byte[] out = new byte[length];
    buf.getBytes(index, out);
    return out;
  }

  static void assertFilled(ByteBuf buf, int index, int length, byte value) {
    byte[] actual = bytes(buf, index, length);
    for (int i = 0; i < length; i++) {
      if (actual[i] != value) {
        fail(String.format("byte %d outside the destination range changed: %02x, was %02x", index + i, actual[i], value));
      }
    }
  }
}
