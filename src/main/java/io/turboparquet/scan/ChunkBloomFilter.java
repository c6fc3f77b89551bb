package io.turboparquet.scan;

import io.turboparquet.filter.SplitBlockBloomFilter;
import io.turboparquet.format.BloomFilterHeader;
import io.turboparquet.format.BloomFilterLocation;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.crypto.ChunkDecryptor;
import io.turboparquet.format.crypto.ModuleType;
import io.turboparquet.format.thrift.BloomFilterHeaderDecoder;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.page.ChunkLocation;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * A split-block bloom filter's bitset at {@code start} in the file, {@code numBytes} long, of which
 * {@code head[headStart, ...)} holds the beginning (or all): a column chunk's bloom filter as
 * {@link RowGroupPruning} reads and checks it. Its bytes come through a {@link Bytes} the caller owns
 * (the stream and the counting of what is read).
 */
final class ChunkBloomFilter {
  /** Largest bitset read (parquet-java's upper bound); larger ones are not used. */
  static final int MAX_BLOOM_FILTER_BYTES = 128 << 20;
  /** A bloom filter's first read: its header and, for filters this small, its whole bitset. */
  static final int FIRST_READ = 64 << 10;
  /** Bitset blocks this close together are read at once. */
  private static final int BLOCK_GAP = 64 << 10;
  /** Most bytes of bitset read at once. */
  private static final int MAX_BLOCK_READ = 1 << 20;

  /** Reads {@code length} bytes at {@code offset} (the caller checked they are in the file). */
  @FunctionalInterface
  interface Bytes {
    byte[] read(long offset, int length) throws IOException;
  }

  private final Bytes reader;
  private final long start;
  private final int numBytes;
  private final byte[] head;
  private final int headStart;

  private ChunkBloomFilter(Bytes reader, long start, int numBytes, byte[] head, int headStart) {
    this.reader = reader;
    this.start = start;
    this.numBytes = numBytes;
    this.head = head;
    this.headStart = headStart;
  }

  /**
   * The bloom filter of {@code chunk} (of row group {@code rowGroup}), checked; null when this reader
   * cannot use it (see {@link RowGroupPruning}'s class comment).
   */
  static ChunkBloomFilter read(FileMetadata meta, int rowGroup, ColumnChunkMeta chunk, Bytes reader)
      throws IOException {
    BloomFilterLocation at = chunk.bloomFilter();
    ErrorContext chunkAt = new ChunkLocation(meta.file(), rowGroup, chunk).context();
    String bloom = "bloom filter at offset " + at.offset();
    long fileLength = meta.fileLength();
    ParquetCorruptionException.validate(at.offset() < fileLength, chunkAt, "%s is outside the file (%d bytes)", bloom,
        fileLength);
    ParquetCorruptionException.validate(at.length() >= 0 && at.length() <= fileLength - at.offset(), chunkAt,
        "%s: ColumnMetaData.bloom_filter_length %d runs past the end of the file (%d bytes)", bloom, at.length(),
        fileLength);
    long span = at.hasLength() ? at.length() : fileLength - at.offset();
    if (chunk.decryptor() != null) {
      return encrypted(meta, chunk, reader, at.offset(), span, chunkAt, bloom);
    }
    byte[] head = reader.read(at.offset(), (int) Math.min(span, FIRST_READ));
    BloomFilterHeader header = BloomFilterHeaderDecoder.read(meta.file(), chunkAt.where() + ": " + bloom, head, 0,
        head.length);
    if (!header.isSupported()) {
      return null;
    }
    int n = header.numBytes();
    ParquetCorruptionException.validate(n >= SplitBlockBloomFilter.BYTES_PER_BLOCK && Integer.bitCount(n) == 1,
        chunkAt, "%s: BloomFilterHeader.numBytes %d is not a power of two of at least %d", bloom, n,
        SplitBlockBloomFilter.BYTES_PER_BLOCK);
    long room = span - header.headerLength();
    ParquetCorruptionException.validate(n <= room, chunkAt,
        "%s: a bitset of %d bytes does not fit in the %d bytes %s after its %d-byte header", bloom, n, room,
        at.hasLength() ? "bloom_filter_length leaves" : "left in the file", header.headerLength());
    if (n > MAX_BLOOM_FILTER_BYTES) {
      return null;
    }
    return new ChunkBloomFilter(reader, at.offset() + header.headerLength(), n, head, header.headerLength());
  }

  /**
   * An encrypted chunk's bloom filter: a GCM module of the header, then one of the bitset, each a
   * 4-byte length and its bytes, checked to fit {@code span} before they are read. The bitset is
   * authenticated whole, so all of it is read and decrypted.
   */
  private static ChunkBloomFilter encrypted(FileMetadata meta, ColumnChunkMeta chunk, Bytes reader, long offset,
      long span, ErrorContext chunkAt, String bloom) throws IOException {
    ChunkDecryptor decryptor = chunk.decryptor();
    long headerModule = moduleLength(reader, offset, span, chunkAt, bloom + " header", FIRST_READ);
    byte[] plainHeader = decryptor.module(reader.read(offset, (int) headerModule), 0, (int) headerModule,
        ModuleType.BLOOM_FILTER_HEADER, 0);
    BloomFilterHeader header = BloomFilterHeaderDecoder.read(meta.file(), chunkAt.where() + ": " + bloom, plainHeader,
        0, plainHeader.length);
    if (!header.isSupported() || header.numBytes() > MAX_BLOOM_FILTER_BYTES) {
      return null;
    }
    int n = header.numBytes();
    ParquetCorruptionException.validate(n >= SplitBlockBloomFilter.BYTES_PER_BLOCK && Integer.bitCount(n) == 1,
        chunkAt, "%s: BloomFilterHeader.numBytes %d is not a power of two of at least %d", bloom, n,
        SplitBlockBloomFilter.BYTES_PER_BLOCK);
    long bitsetAt = offset + headerModule;
    long bitsetModule = moduleLength(reader, bitsetAt, span - headerModule, chunkAt, bloom + " bitset",
        MAX_BLOOM_FILTER_BYTES + 32);
    byte[] bitset = decryptor.module(reader.read(bitsetAt, (int) bitsetModule), 0, (int) bitsetModule,
        ModuleType.BLOOM_FILTER_BITSET, 0);
    ParquetCorruptionException.validate(bitset.length == n, chunkAt,
        "%s: the decrypted bitset has %d bytes, its header says %d", bloom, bitset.length, n);
    return new ChunkBloomFilter(reader, bitsetAt, n, bitset, 0);
  }

  /** The stored length (prefix included) of the module at {@code offset}, checked to fit {@code room} and {@code max}. */
  private static long moduleLength(Bytes reader, long offset, long room, ErrorContext chunkAt, String what, int max)
      throws IOException {
    ParquetCorruptionException.validate(room >= 4, chunkAt, "%s: no room for an encrypted module", what);
    byte[] prefix = reader.read(offset, 4);
    long n = 4 + ((prefix[0] & 0xffL) | (prefix[1] & 0xffL) << 8 | (prefix[2] & 0xffL) << 16 | (prefix[3] & 0xffL) << 24);
    ParquetCorruptionException.validate(n <= room && n <= max, chunkAt,
        "%s: an encrypted module of %d bytes does not fit in the %d bytes left (at most %d)", what, n, room, max);
    return n;
  }

  /** Whether any of {@code values} (stored forms) may have been inserted. */
  boolean mayContainAny(List<byte[]> values) throws IOException {
    int numBlocks = numBytes / SplitBlockBloomFilter.BYTES_PER_BLOCK;
    int inHead = (head.length - headStart) / SplitBlockBloomFilter.BYTES_PER_BLOCK;
    long[] rest = new long[values.size()]; // block << 32 | value index, for blocks beyond the head
    int n = 0;
    long[] hashes = new long[values.size()];
    for (int i = 0; i < values.size(); i++) {
      hashes[i] = SplitBlockBloomFilter.hash(values.get(i));
      int block = SplitBlockBloomFilter.block(hashes[i], numBlocks);
      if (block < inHead) {
        if (SplitBlockBloomFilter.blockMayContain(head, headStart + block * SplitBlockBloomFilter.BYTES_PER_BLOCK,
            hashes[i])) {
          return true;
        }
      } else {
        rest[n++] = (long) block << 32 | i;
      }
    }
    Arrays.sort(rest, 0, n);
    int i = 0;
    while (i < n) {
      // One read for blocks close together, at most MAX_BLOCK_READ bytes.
      long first = rest[i] >>> 32;
      int j = i + 1;
      while (j < n && ((rest[j] >>> 32) - (rest[j - 1] >>> 32)) * SplitBlockBloomFilter.BYTES_PER_BLOCK <= BLOCK_GAP
          && ((rest[j] >>> 32) - first + 1) * SplitBlockBloomFilter.BYTES_PER_BLOCK <= MAX_BLOCK_READ) {
        j++;
      }
      long last = rest[j - 1] >>> 32;
      byte[] bytes = reader.read(start + first * SplitBlockBloomFilter.BYTES_PER_BLOCK,
          (int) ((last - first + 1) * SplitBlockBloomFilter.BYTES_PER_BLOCK));
      for (int k = i; k < j; k++) {
        long block = rest[k] >>> 32;
        long hash = hashes[(int) rest[k]];
        if (SplitBlockBloomFilter.blockMayContain(bytes, (int) (block - first) * SplitBlockBloomFilter.BYTES_PER_BLOCK,
            hash)) {
          return true;
        }
      }
      i = j;
    }
    return false;
  }
}
