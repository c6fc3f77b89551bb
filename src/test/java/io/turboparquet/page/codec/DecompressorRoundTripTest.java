package io.turboparquet.page.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.io.TrackingBufferSource;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Pages made by the real compressors decompress back, in place, inside larger direct buffers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DecompressorRoundTripTest {
  static final byte SRC_FILL = (byte) 0xA5;
  static final byte DST_FILL = (byte) 0x5A;

  private static List<CodecFixtures.Case> cases;
  private TrackingBufferSource source;

  static Stream<CodecFixtures.Case> cases() {
    if (cases == null) {
      cases = CodecFixtures.cases();
    }
    return cases.stream();
  }

  /** Compresses the fixtures before the tests, out of their timeout (seconds on a busy machine). */
  @BeforeAll
  static void compressFixtures() {
    cases();
  }

  @BeforeEach
  void setUp() {
    source = new TrackingBufferSource();
  }

  @AfterEach
  void noLeaks() {
    assertEquals(0, source.outstanding(), "buffers leaked");
    assertEquals(0, source.outstandingBytes(), "direct bytes leaked");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void roundTripsAtOffsetsInsideDirectBuffers(CodecFixtures.Case c) throws Exception {
    Decompressor decompressor = Decompressors.create(c.codec());
    ByteBuf src = source.buffer(c.compressed().length + 37 + 11);
    ByteBuf dst = source.buffer(c.plain().length + 64 + 23);
    try {
      PageBuffers.fill(src, SRC_FILL);
      src.setBytes(37, c.compressed());
      src.setIndex(5, 30);
      PageBuffers.fill(dst, DST_FILL);
      dst.setIndex(2, 9);
      byte[] srcBefore = PageBuffers.bytes(src, 0, src.capacity());

      // Twice with the same instance: decompressors are reused across pages.
      for (int round = 0; round < 2; round++) {
        decompressor.decompress(src, 37, c.compressed().length, dst, 64, c.plain().length);

        assertArrayEquals(c.plain(), PageBuffers.bytes(dst, 64, c.plain().length), "decompressed bytes");
        PageBuffers.assertFilled(dst, 0, 64, DST_FILL);
        PageBuffers.assertFilled(dst, 64 + c.plain().length, 23, DST_FILL);
        assertArrayEquals(srcBefore, PageBuffers.bytes(src, 0, src.capacity()), "source changed");
        assertEquals(5, src.readerIndex());
        assertEquals(30, src.writerIndex());
        assertEquals(2, dst.readerIndex());
        assertEquals(9, dst.writerIndex());
        PageBuffers.fill(dst, DST_FILL);
      }
    } finally {
      src.release();
      dst.release();
    }
  }

  /** One instance per codec decompresses every page of that codec in turn, into one buffer. */
  @Test
  void oneInstancePerCodecDecompressesManyPages() throws Exception {
    Map<CompressionCodec, Decompressor> byCodec = new EnumMap<>(CompressionCodec.class);
    int pages = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (CodecFixtures.Case c : cases().toList()) {
        Decompressor d = byCodec.computeIfAbsent(c.codec(), Decompressors::create);
        ByteBuf src = source.buffer(c.compressed().length + 3);
        ByteBuf dst = source.buffer(c.plain().length + 3);
        try {
          src.setBytes(3, c.compressed());
          d.decompress(src, 3, c.compressed().length, dst, 3, c.plain().length);
          assertArrayEquals(c.plain(), PageBuffers.bytes(dst, 3, c.plain().length), c.toString());
          pages++;
        } finally {
          src.release();
          dst.release();
        }
      }
    }
    assertEquals(2 * cases.size(), pages);
    assertEquals(CompressionCodec.values().length - 1, byCodec.size(), "every codec but LZO exercised");
  }

  /** Heap and composite buffers have no direct view: the scratch-copy path must give the same bytes. */
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void heapAndCompositeBuffersWorkThroughCopies(CompressionCodec codec) throws Exception {
    List<CodecFixtures.Case> ofCodec =
        cases().filter(c -> c.codec() == codec && c.plain().length > 1000).toList();
    assertTrue(ofCodec.size() >= 2, "cases for " + codec);
    Decompressor d = Decompressors.create(codec);
    for (CodecFixtures.Case c : ofCodec) {
      int n = c.plain().length;
      int m = c.compressed().length;
      // heap -> heap
      ByteBuf heapSrc = Unpooled.wrappedBuffer(CodecFixtures.concat(new byte[7], c.compressed(), new byte[3]));
      ByteBuf heapDst = Unpooled.buffer(n + 20, n + 20);
      PageBuffers.fill(heapDst, DST_FILL);
      d.decompress(heapSrc, 7, m, heapDst, 10, n);
      assertArrayEquals(c.plain(), PageBuffers.bytes(heapDst, 10, n), c + " heap->heap");
      PageBuffers.assertFilled(heapDst, 0, 10, DST_FILL);
      PageBuffers.assertFilled(heapDst, 10 + n, 10, DST_FILL);

      // composite (two components, split inside the page) -> direct
      ByteBuf direct = source.buffer(n + 20);
      ByteBuf first = source.buffer(7 + m / 2);
      ByteBuf second = source.buffer(m - m / 2 + 3);
      first.writerIndex(7).writeBytes(c.compressed(), 0, m / 2);
      second.writeBytes(c.compressed(), m / 2, m - m / 2).writeZero(3);
      CompositeByteBuf composite = Unpooled.compositeBuffer().addComponents(true, first, second);
      try {
        assertTrue(composite.nioBufferCount() > 1);
        PageBuffers.fill(direct, DST_FILL);
        d.decompress(composite, 7, m, direct, 10, n);
        assertArrayEquals(c.plain(), PageBuffers.bytes(direct, 10, n), c + " composite->direct");
        PageBuffers.assertFilled(direct, 0, 10, DST_FILL);
        PageBuffers.assertFilled(direct, 10 + n, 10, DST_FILL);

        // direct -> heap
        ByteBuf directSrc = source.buffer(m + 1);
        try {
          directSrc.setBytes(1, c.compressed());
          PageBuffers.fill(heapDst, DST_FILL);
          d.decompress(directSrc, 1, m, heapDst, 10, n);
          assertArrayEquals(c.plain(), PageBuffers.bytes(heapDst, 10, n), c + " direct->heap");
          PageBuffers.assertFilled(heapDst, 10 + n, 10, DST_FILL);
        } finally {
          directSrc.release();
        }
      } finally {
        composite.release(); // releases both components
        direct.release();
      }
    }
  }

  @Test
  void factoryMakesFreshInstancesAndRejectsLzo() {
    for (CompressionCodec codec : CompressionCodec.values()) {
      if (codec == CompressionCodec.LZO) {
        UnsupportedOperationException e = org.junit.jupiter.api.Assertions.assertThrows(
            UnsupportedOperationException.class, () -> Decompressors.create(codec));
        assertEquals("LZO compression is not supported", e.getMessage());
      } else {
        assertTrue(Decompressors.create(codec) != Decompressors.create(codec), codec.toString());
      }
    }
  }
}
