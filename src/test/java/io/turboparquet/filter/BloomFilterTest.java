package io.turboparquet.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.BloomFilterHeader;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.thrift.BloomFilterHeaderDecoder;
import io.turboparquet.format.thrift.CompactWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * The split-block bloom filter's reading side against parquet-java's writer: hashes of every
 * physical type's PLAIN encoding, the blocks and bits a hash tests, parquet-testing's filter file
 * (header and bitset as parquet-mr wrote them), and header decoding.
 */
class BloomFilterTest {
  static boolean mayContain(byte[] bitset, int offset, int numBytes, long hash) {
    int block = SplitBlockBloomFilter.block(hash, numBytes / SplitBlockBloomFilter.BYTES_PER_BLOCK);
    return SplitBlockBloomFilter.blockMayContain(bitset, offset + block * SplitBlockBloomFilter.BYTES_PER_BLOCK, hash);
  }

  static byte[] le(long v, int width) {
    ByteBuffer b = ByteBuffer.allocate(width).order(ByteOrder.LITTLE_ENDIAN);
    if (width == 4) {
      b.putInt((int) v);
    } else {
      b.putLong(v);
    }
    return b.array();
  }

  @Test
  void hashesEqualParquetJavas() {
    BlockSplitBloomFilter pj = new BlockSplitBloomFilter(1024);
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 2000; i++) {
      int n = r.nextInt();
      long l = r.nextLong();
      float f = (float) r.nextDouble(-1e6, 1e6);
      double d = r.nextDouble(-1e9, 1e9);
      byte[] s = new byte[r.nextInt(0, 70)];
      r.nextBytes(s);
      assertEquals(pj.hash(n), SplitBlockBloomFilter.hash(le(n, 4)));
      assertEquals(pj.hash(l), SplitBlockBloomFilter.hash(le(l, 8)));
      assertEquals(pj.hash(f), SplitBlockBloomFilter.hash(le(Float.floatToRawIntBits(f), 4)));
      assertEquals(pj.hash(d), SplitBlockBloomFilter.hash(le(Double.doubleToRawLongBits(d), 8)));
      assertEquals(pj.hash(Binary.fromConstantByteArray(s)), SplitBlockBloomFilter.hash(s));
    }
  }

  @Test
  void answersAsParquetJavaDoes() throws IOException {
    SplittableRandom r = new SplittableRandom(6);
    for (int numBytes : new int[] {32, 64, 1024, 1 << 16}) {
      BlockSplitBloomFilter pj = new BlockSplitBloomFilter(numBytes);
      for (int i = 0; i < numBytes / 16; i++) {
        pj.insertHash(pj.hash(r.nextLong(1000)));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      pj.writeTo(out);
      byte[] bitset = out.toByteArray();
      assertEquals(numBytes, bitset.length);
      int present = 0;
      for (int i = 0; i < 3000; i++) {
        long hash = pj.hash(r.nextLong(2000));
        boolean ours = mayContain(bitset, 0, numBytes, hash);
        assertEquals(pj.findHash(hash), ours, "numBytes " + numBytes);
        present += ours ? 1 : 0;
      }
      assertTrue(present > 0 && present < 3000, "numBytes " + numBytes + ": " + present);
    }
  }

  /** parquet-testing's bloom_filter.xxhash.bin: "hello", "parquet", "bloom", "filter" inserted by parquet-mr. */
  @Test
  void parquetTestingFilter() throws IOException {
    byte[] file;
    try (InputStream in = BloomFilterTest.class.getResourceAsStream("/parquet-testing/bloom_filter.xxhash.bin")) {
      file = in.readAllBytes();
    }
    BloomFilterHeader h = BloomFilterHeaderDecoder.read("bloom_filter.xxhash.bin", "bloom filter", file, 0, file.length);
    assertTrue(h.isSupported());
    assertEquals(file.length, h.headerLength() + h.numBytes());
    for (String s : new String[] {"hello", "parquet", "bloom", "filter"}) {
      assertTrue(mayContain(file, h.headerLength(), h.numBytes(), SplitBlockBloomFilter.hash(s.getBytes(StandardCharsets.UTF_8))), s);
    }
    int falsePositives = 0;
    for (int i = 0; i < 1000; i++) {
      falsePositives += mayContain(file, h.headerLength(), h.numBytes(),
          SplitBlockBloomFilter.hash(("absent-" + i).getBytes(StandardCharsets.UTF_8))) ? 1 : 0;
    }
    assertTrue(falsePositives < 10, "false positives " + falsePositives);
  }

  @Test
  void headerMembersAndRequiredFields() throws ParquetCorruptionException {
    byte[] known = new CompactWriter().i32(1, 64).struct(2).struct(1).stop().stop().struct(3).struct(1).stop().stop()
        .struct(4).struct(1).stop().stop().stop().bytes();
    BloomFilterHeader h = BloomFilterHeaderDecoder.read("f", "bloom filter", known, 0, known.length);
    assertEquals(new BloomFilterHeader(64, true, true, true, known.length), h);
    // a newer writer's member (with contents), and an unknown field: skipped
    byte[] newer = new CompactWriter().i32(1, 64).struct(2).struct(2).i32(1, 7).stop().stop().struct(3).struct(1).stop()
        .stop().struct(4).struct(1).stop().stop().i64(9, 1).stop().bytes();
    h = BloomFilterHeaderDecoder.read("f", "bloom filter", newer, 0, newer.length);
    assertFalse(h.isSupported());
    assertFalse(h.splitBlock());
    assertTrue(h.xxHash());
    byte[] noHash = new CompactWriter().i32(1, 64).struct(2).struct(1).stop().stop().struct(4).struct(1).stop().stop()
        .stop().bytes();
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class,
        () -> BloomFilterHeaderDecoder.read("f", "row group 0 column c: bloom filter at offset 4", noHash, 0, noHash.length));
    assertTrue(e.getMessage().startsWith("[f] row group 0 column c: bloom filter at offset 4"), e.getMessage());
    assertTrue(e.getMessage().contains("BloomFilterHeader.hash"), e.getMessage());
    ParquetCorruptionException cut = assertThrows(ParquetCorruptionException.class,
        () -> BloomFilterHeaderDecoder.read("f", "bloom filter", known, 0, 5));
    assertTrue(cut.getMessage().startsWith("[f]"), cut.getMessage());
  }
}
