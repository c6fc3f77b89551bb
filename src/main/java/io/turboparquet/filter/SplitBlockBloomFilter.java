package io.turboparquet.filter;

import net.openhft.hashing.LongHashFunction;

/**
 * Parquet's split-block bloom filter (parquet-format BloomFilter.md), reading side: a bitset of
 * 32-byte blocks, each eight little-endian 32-bit words. A value's hash is xxHash64 (seed 0) of its
 * PLAIN encoding ({@link EqualityValues}); its upper 32 bits pick the block, its lower 32 bits, times
 * eight odd salts, one bit in each word. A value whose bits are not all set was never inserted.
 */
public final class SplitBlockBloomFilter {
  public static final int BYTES_PER_BLOCK = 32;
  /** The format's salts, one per word of a block. */
  private static final int[] SALT = {
      0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};
  private static final LongHashFunction XXH64 = LongHashFunction.xx();

  private SplitBlockBloomFilter() {}

  /** xxHash64 with seed 0 of {@code plain}. */
  public static long hash(byte[] plain) {
    return XXH64.hashBytes(plain);
  }

  /** The block of a filter of {@code numBlocks} blocks (at least 1) that {@code hash} falls in. */
  public static int block(long hash, int numBlocks) {
    return (int) (((hash >>> 32) * numBlocks) >>> 32);
  }

  /** Whether the block at {@code bytes[offset, offset + 32)} has every bit of {@code hash} set. */
  public static boolean blockMayContain(byte[] bytes, int offset, long hash) {
    int key = (int) hash;
    for (int i = 0; i < SALT.length; i++) {
      int at = offset + 4 * i;
      int word = bytes[at] & 0xff | (bytes[at + 1] & 0xff) << 8 | (bytes[at + 2] & 0xff) << 16 | bytes[at + 3] << 24;
      if ((word & 1 << ((key * SALT[i]) >>> 27)) == 0) {
        return false;
      }
    }
    return true;
  }
}
