package io.turboparquet.page.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Corrupt, truncated and mis-sized pages fail with an IOException naming the codec, never write
 * outside the destination range, never move indexes, and leave the decompressor usable.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DecompressorErrorTest {
  private static final byte[] TEXT = CodecFixtures.text(100_000);
  private static final byte[] BRIEF_TEXT = CodecFixtures.resource("brotli-text.txt");

  private TrackingBufferSource source;

  @BeforeEach
  void setUp() {
    source = new TrackingBufferSource();
  }

  @AfterEach
  void noLeaks() {
    assertEquals(0, source.outstanding(), "buffers leaked");
  }

  /** The plain page used for a codec and its page body from the codec's first (main) encoder. */
  private static byte[] plain(CompressionCodec codec) {
    return codec == CompressionCodec.BROTLI ? BRIEF_TEXT : TEXT;
  }

  private static byte[] compress(CompressionCodec codec, byte[] plain) throws IOException {
    if (codec == CompressionCodec.BROTLI) {
      return CodecFixtures.resource("brotli-text.q11.br");
    }
    return CodecFixtures.encoders(codec).values().iterator().next().encode(plain);
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void wrongUncompressedSizeFails(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    byte[] plain = plain(codec);
    byte[] page = compress(codec, plain);
    for (int wrong : new int[] {plain.length - 1, plain.length + 1, plain.length / 2, plain.length * 2, 1}) {
      IOException e = assertFails(d, codec, page, page.length, wrong);
      if (codec != CompressionCodec.UNCOMPRESSED) {
        assertTrue(e.getMessage().contains(String.valueOf(wrong)), e.getMessage());
      }
    }
    assertDecompresses(d, page, plain); // still usable after failures
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void truncatedPageFails(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    byte[] plain = plain(codec);
    byte[] page = compress(codec, plain);
    for (int length : new int[] {page.length - 1, page.length - 4, page.length / 2, 3, 1}) {
      assertFails(d, codec, page, length, plain.length);
    }
    assertDecompresses(d, page, plain);
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = {"LZO", "UNCOMPRESSED"}, mode = EnumSource.Mode.EXCLUDE)
  void garbageFails(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    Random random = new Random(codec.ordinal());
    for (int size : new int[] {1, 7, 100, 5000, 70_000}) {
      byte[] garbage = new byte[size];
      random.nextBytes(garbage);
      assertFails(d, codec, garbage, garbage.length, 10_000);
      assertFails(d, codec, garbage, garbage.length, size);
    }
    byte[] zeros = new byte[4096];
    assertFails(d, codec, zeros, zeros.length, 4096);
  }

  /** Bytes after the end of the compressed data. gzip ignores non-member trailing bytes, like GZIPInputStream; brotli's decoder stops at its last meta-block. */
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = {"LZO", "UNCOMPRESSED", "GZIP", "BROTLI"}, mode = EnumSource.Mode.EXCLUDE)
  void trailingGarbageFails(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    byte[] plain = plain(codec);
    byte[] page = CodecFixtures.concat(compress(codec, plain), new byte[] {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88, 0x19});
    assertFails(d, codec, page, page.length, plain.length);
  }

  /** A tiny page that would expand far beyond the promised size: stops at the range, no hang. */
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = {"LZO", "UNCOMPRESSED", "BROTLI"}, mode = EnumSource.Mode.EXCLUDE)
  void expansionBeyondPromisedSizeStopsAtTheRange(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    byte[] bomb = new byte[16 << 20];
    byte[] page = compress(codec, bomb);
    assertTrue(page.length < bomb.length / 20, "compressible: " + page.length); // snappy: ~21x at best
    for (int promised : new int[] {0, 1, 1000, 65536, bomb.length - 1}) {
      assertFails(d, codec, page, page.length, promised);
    }
  }

  @Test
  void brotliExpansionBeyondPromisedSizeStopsAtTheRange() throws Exception {
    Decompressor d = Decompressors.create(CompressionCodec.BROTLI);
    byte[] page = CodecFixtures.resource("brotli-pattern-1m.br");
    for (int promised : new int[] {0, 1, 1000, (1 << 20) - 1}) {
      IOException e = assertFails(d, CompressionCodec.BROTLI, page, page.length, promised);
      if (promised > 0) {
        assertTrue(e.getMessage().contains("more than " + promised), e.getMessage());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void emptyPagesAndEmptySources(CompressionCodec codec) throws Exception {
    Decompressor d = Decompressors.create(codec);
    ByteBuf src = source.buffer(8);
    ByteBuf dst = source.buffer(8);
    try {
      PageBuffers.fill(dst, (byte) 1);
      d.decompress(src, 4, 0, dst, 4, 0); // nothing compressed, nothing promised: fine
      PageBuffers.assertFilled(dst, 0, 8, (byte) 1);
    } finally {
      src.release();
      dst.release();
    }
    assertFails(d, codec, new byte[0], 0, 100);
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void rangesOutsideTheBuffersAreRejected(CompressionCodec codec) {
    Decompressor d = Decompressors.create(codec);
    ByteBuf src = source.buffer(16);
    ByteBuf dst = source.buffer(16);
    try {
      assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(src, 10, 7, dst, 0, 7));
      assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(src, 0, 7, dst, 10, 7));
      assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(src, -1, 7, dst, 0, 7));
      assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(src, 0, 7, dst, 0, -7));
    } finally {
      src.release();
      dst.release();
    }
  }

  @Test
  void gzipChecksumsAndHeadersAreVerified() throws Exception {
    CompressionCodec gzip = CompressionCodec.GZIP;
    Decompressor d = Decompressors.create(gzip);
    byte[] page = CodecFixtures.gzip(TEXT);
    int n = TEXT.length;

    byte[] badCrc = page.clone();
    badCrc[page.length - 8] ^= 1;
    assertMessage(assertFails(d, gzip, badCrc, badCrc.length, n), "CRC32");

    byte[] badSize = page.clone();
    badSize[page.length - 4] ^= 1;
    assertMessage(assertFails(d, gzip, badSize, badSize.length, n), "trailer says");

    byte[] flipped = page.clone();
    flipped[page.length / 2] ^= 0x10;
    assertFails(d, gzip, flipped, flipped.length, n);

    byte[] method = page.clone();
    method[2] = 7;
    assertMessage(assertFails(d, gzip, method, method.length, n), "compression method");

    byte[] reserved = page.clone();
    reserved[3] = (byte) 0x80;
    assertMessage(assertFails(d, gzip, reserved, reserved.length, n), "reserved");

    byte[] withFields = CodecFixtures.gzipWithHeaderFields(TEXT, 6);
    byte[] badHeaderCrc = withFields.clone();
    badHeaderCrc[22] ^= 1; // inside FNAME, covered by FHCRC
    assertMessage(assertFails(d, gzip, badHeaderCrc, badHeaderCrc.length, n), "CRC16");
    assertFails(d, gzip, withFields, 15, n); // FEXTRA cut short
    assertFails(d, gzip, withFields, 25, n); // FNAME not terminated

    byte[] notGzip = "plain text, not compressed".getBytes();
    assertMessage(assertFails(d, gzip, notGzip, notGzip.length, 100), "not a gzip or zlib stream");

    byte[] zlib = CodecFixtures.zlib(TEXT);
    zlib[zlib.length - 1] ^= 1; // Adler-32
    assertFails(d, gzip, zlib, zlib.length, n);

    // second member corrupt, or a second member that is only a truncated header
    byte[] half = Arrays.copyOf(TEXT, n / 2);
    byte[] twoMembers = CodecFixtures.concat(CodecFixtures.gzip(half), CodecFixtures.gzip(half));
    assertDecompresses(d, twoMembers, CodecFixtures.concat(half, half));
    byte[] secondBad = twoMembers.clone();
    secondBad[twoMembers.length - 3] ^= 1;
    assertFails(d, gzip, secondBad, secondBad.length, 2 * half.length);
    byte[] truncatedSecond = CodecFixtures.concat(CodecFixtures.gzip(half), new byte[] {0x1F, (byte) 0x8B, 8});
    assertMessage(assertFails(d, gzip, truncatedSecond, truncatedSecond.length, half.length), "truncated gzip header");

    // trailing non-member bytes are ignored once the page is complete
    assertDecompresses(d, CodecFixtures.concat(page, new byte[] {0, 0, 0, 1}), TEXT);
  }

  @Test
  void checksummedFormatsCatchBitFlips() throws Exception {
    byte[] zstd = CodecFixtures.zstd(TEXT, false, true, 3);
    byte[] lz4Frame = CodecFixtures.lz4Frame(TEXT);
    Random random = new Random(3);
    for (int i = 0; i < 20; i++) {
      byte[] z = zstd.clone();
      z[8 + random.nextInt(z.length - 8)] ^= (byte) (1 << random.nextInt(8));
      assertFails(Decompressors.create(CompressionCodec.ZSTD), CompressionCodec.ZSTD, z, z.length, TEXT.length);
      byte[] f = lz4Frame.clone();
      f[12 + random.nextInt(f.length - 12)] ^= (byte) (1 << random.nextInt(8));
      assertFails(Decompressors.create(CompressionCodec.LZ4), CompressionCodec.LZ4, f, f.length, TEXT.length);
    }
  }

  @Test
  void lz4ExplainsEveryFramingItTried() throws Exception {
    Decompressor d = Decompressors.create(CompressionCodec.LZ4);
    byte[] hadoop = CodecFixtures.lz4Hadoop(TEXT, 30_000, 10_000);
    IOException e = assertFails(d, CompressionCodec.LZ4, hadoop, hadoop.length, TEXT.length - 5);
    assertMessage(e, "Hadoop-framed");
    assertMessage(e, "raw LZ4 block");

    // first chunk's compressed length one short (LZ4 has no checksum: flipped literals would pass)
    byte[] corruptChunk = hadoop.clone();
    int firstChunk = java.nio.ByteBuffer.wrap(hadoop, 4, 4).getInt();
    System.arraycopy(CodecFixtures.intBE(firstChunk - 1), 0, corruptChunk, 4, 4);
    assertFails(d, CompressionCodec.LZ4, corruptChunk, corruptChunk.length, TEXT.length);

    byte[] frame = CodecFixtures.lz4Frame(TEXT);
    assertMessage(assertFails(d, CompressionCodec.LZ4, frame, frame.length - 2, TEXT.length), "LZ4 frame");

    // a Hadoop block header promising more than the page: not Hadoop, and not a raw block either
    byte[] lying = CodecFixtures.concat(CodecFixtures.intBE(TEXT.length + 1), Arrays.copyOfRange(hadoop, 4, hadoop.length));
    assertFails(d, CompressionCodec.LZ4, lying, lying.length, TEXT.length);
    assertDecompresses(d, hadoop, TEXT);
  }

  /**
   * A match offset of 0 points at output not yet written: LZ4 forbids it, aircompressor takes it
   * and copies whatever the destination held (values changed with the read mode, and a pooled
   * buffer could show another query's bytes). The destination is zeroed first, so such a match
   * reads zeros whatever the buffer held (here the 8 literals before it leave nothing past them;
   * see the next test for literals that do); an offset past the decoded bytes still fails.
   */
  @Test
  void lz4MatchOffsetZeroReadsZerosWhateverTheBufferHeld() throws Exception {
    // 8 literals, a match of 8 at the offset, 12 closing literals (LZ4's end-of-block rules)
    byte[] plain = "abcdefghabcdefgh0123456789ab".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] zeroMatch = plain.clone();
    java.util.Arrays.fill(zeroMatch, 8, 16, (byte) 0);
    for (int offset : new int[] {8, 0, 9}) {
      byte[] block = CodecFixtures.concat(new byte[] {(byte) 0x84}, java.util.Arrays.copyOf(plain, 8),
          new byte[] {(byte) offset, 0, (byte) 0xC0}, java.util.Arrays.copyOfRange(plain, 16, 28));
      byte[] hadoop = CodecFixtures.concat(CodecFixtures.intBE(plain.length), CodecFixtures.intBE(block.length), block);
      for (CompressionCodec codec : new CompressionCodec[] {CompressionCodec.LZ4_RAW, CompressionCodec.LZ4}) {
        byte[] page = codec == CompressionCodec.LZ4 ? hadoop : block;
        if (offset == 9) {
          assertFails(Decompressors.create(codec), codec, page, page.length, plain.length);
          continue;
        }
        for (byte held : new byte[] {0x77, 0x11}) {
          ByteBuf src = source.buffer(page.length);
          ByteBuf dst = source.buffer(plain.length);
          try {
            src.setBytes(0, page);
            PageBuffers.fill(dst, held);
            Decompressors.create(codec).decompress(src, 0, page.length, dst, 0, plain.length);
            assertArrayEquals(offset == 8 ? plain : zeroMatch, PageBuffers.bytes(dst, 0, plain.length),
                codec + " offset " + offset + " over bytes " + held);
          } finally {
            src.release();
            dst.release();
          }
        }
      }
    }
  }
  /**
   * After a literal shorter than 8 bytes, aircompressor's literal copy leaves input bytes past it,
   * and a match offset of 0 copies those: not zeros, but the same bytes whatever the buffer held,
   * never one of the buffer's own bytes.
   */
  @Test
  void lz4MatchOffsetZeroAfterAShortLiteralReadsTheSameWhateverTheBufferHeld() throws Exception {
    // 1 literal, a match of 8 at offset 0, 19 closing literals (LZ4's end-of-block rules)
    byte[] tail = "0123456789abcdefghi".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] block = CodecFixtures.concat(new byte[] {(byte) 0x14, 'x', 0, 0, (byte) 0xF0, 4}, tail);
    int length = 1 + 8 + tail.length;
    byte[] hadoop = CodecFixtures.concat(CodecFixtures.intBE(length), CodecFixtures.intBE(block.length), block);
    for (CompressionCodec codec : new CompressionCodec[] {CompressionCodec.LZ4_RAW, CompressionCodec.LZ4}) {
      byte[] page = codec == CompressionCodec.LZ4 ? hadoop : block;
      byte[] first = null;
      for (byte held : new byte[] {0x77, 0x11}) {
        ByteBuf src = source.buffer(page.length);
        ByteBuf dst = source.buffer(length);
        try {
          src.setBytes(0, page);
          PageBuffers.fill(dst, held);
          Decompressors.create(codec).decompress(src, 0, page.length, dst, 0, length);
          byte[] out = PageBuffers.bytes(dst, 0, length);
          for (byte b : out) {
            assertNotEquals(held, b, codec + ": a byte the buffer held shows");
          }
          if (first == null) {
            first = out;
          } else {
            assertArrayEquals(first, out, codec + ": the answer depends on what the buffer held");
          }
        } finally {
          src.release();
          dst.release();
        }
      }
    }
  }


  @Test
  void snappyLengthPreambleIsCheckedBeforeWriting() throws Exception {
    Decompressor d = Decompressors.create(CompressionCodec.SNAPPY);
    byte[] page = org.xerial.snappy.Snappy.compress(TEXT);
    IOException e = assertFails(d, CompressionCodec.SNAPPY, page, page.length, 1000);
    assertEquals("SNAPPY: page decompressed to " + TEXT.length + " bytes, header says 1000", e.getMessage());
  }

  private static void assertMessage(IOException e, String part) {
    assertTrue(e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
  }

  /**
   * Decompresses {@code page[0, srcLength)} placed at an offset into a guarded range of {@code
   * dstLength}; asserts an IOException starting with the codec name, guards intact, indexes unmoved.
   */
  private IOException assertFails(Decompressor d, CompressionCodec codec, byte[] page, int srcLength, int dstLength) {
    ByteBuf src = source.buffer(srcLength + 16);
    ByteBuf dst = source.buffer(dstLength + 64);
    try {
      src.setBytes(8, page, 0, srcLength);
      src.setIndex(1, 2);
      PageBuffers.fill(dst, (byte) 0x77);
      dst.setIndex(3, 4);
      // preemptive: a decompressor that loops forever on bad input fails here instead of hanging
      IOException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(IOException.class,
          () -> d.decompress(src, 8, srcLength, dst, 32, dstLength),
          codec + " accepted " + srcLength + " bytes as " + dstLength));
      assertTrue(e.getMessage().startsWith(codec.name() + ": "), "message names the codec: " + e.getMessage());
      PageBuffers.assertFilled(dst, 0, 32, (byte) 0x77);
      PageBuffers.assertFilled(dst, 32 + dstLength, 32, (byte) 0x77);
      assertEquals(1, src.readerIndex());
      assertEquals(2, src.writerIndex());
      assertEquals(3, dst.readerIndex());
      assertEquals(4, dst.writerIndex());
      return e;
    } finally {
      src.release();
      dst.release();
    }
  }

  private void assertDecompresses(Decompressor d, byte[] page, byte[] plain) throws IOException {
    ByteBuf src = source.buffer(page.length);
    ByteBuf dst = source.buffer(plain.length);
    try {
      src.setBytes(0, page);
      d.decompress(src, 0, page.length, dst, 0, plain.length);
      assertArrayEquals(plain, PageBuffers.bytes(dst, 0, plain.length));
    } finally {
      src.release();
      dst.release();
    }
  }
}
