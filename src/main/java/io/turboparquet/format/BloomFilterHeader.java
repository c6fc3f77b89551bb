package io.turboparquet.format;

/**
 * A column chunk's BloomFilterHeader as decoded: the bitset's size and which members of the
 * algorithm, hash and compression unions are set. Only a split-block filter hashed with xxHash
 * and stored uncompressed (the one kind the format defines so far) can be used; the others come
 * from writers newer than this reader.
 *
 * @param numBytes bytes of the bitset that follows the header, as stored (not checked here)
 * @param splitBlock the algorithm is BLOCK (split-block)
 * @param xxHash the hash is XXHASH (xxHash64, seed 0)
 * @param uncompressed the compression is UNCOMPRESSED
 * @param headerLength bytes the header itself took
 */
public record BloomFilterHeader(int numBytes, boolean splitBlock, boolean xxHash, boolean uncompressed,
    int headerLength) {

  /** Whether this reader knows how to test the bitset: split-block, xxHash, uncompressed. */
  public boolean isSupported() {
    return splitBlock && xxHash && uncompressed;
  }
}
