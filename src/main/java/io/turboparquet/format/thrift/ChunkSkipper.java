package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.STRUCT;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Skips a ColumnChunk laid out as the common writers lay it out (parquet-java, Arrow C++):
 * file_offset, meta_data {type, encodings, path_in_schema, codec, num_values, sizes,
 * data_page_offset, dictionary_page_offset?, statistics?, encoding_stats?}, then the page-index
 * offsets. Anything else is walked by {@link CompactSkipper} from where the layout stopped
 * matching, so the result is always where {@link CompactSkipper#skip} ends, or {@link #FAIL}.
 *
 * <p>Why it is faster: the generic walk decodes each field header, dispatches on its wire type and
 * checks its id. Here the bytes of a 16-byte window (24 for one run) are turned into a bit mask
 * of the bytes that end a varint (high bit clear); field headers and STOPs of the expected layout
 * have their high bit clear too, so a run of header + varint fields is walked by clearing mask
 * bits, each expected header byte compared once: fewer instructions per field (the skip is
 * bound by instructions, not by the chain of positions).
 */
final class ChunkSkipper {
  static final int FAIL = CompactSkipper.FAIL;

  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Bytes looked at by one {@link #fields} or {@link #values}. */
  private static final int WINDOW = 16;
  private static final long HIGH_BITS = 0x8080808080808080L;
  /** Gathers the high bit of each byte of a word into the top byte (byte i to bit 56 + i). */
  private static final long GATHER = 0x0102040810204080L;

  // Field headers (delta << 4 | wire type) of the expected layout.
  private static final int I32_NEXT = 0x15; // i32, next id
  private static final int I64_NEXT = 0x16;
  private static final int I64_SKIP1 = 0x26; // i64, id + 2
  private static final int STRUCT_NEXT = 0x1c;
  private static final int LIST_NEXT = 0x19;
  private static final int BINARY_NEXT = 0x18;

  private ChunkSkipper() {}

  /** Position after the ColumnChunk at {@code b[p]}; as {@link CompactSkipper#skip} with STRUCT. */
  static int skip(byte[] b, int p, int limit, int maxLength) {
    int end = layout(b, p, limit, maxLength);
    return end != NOT_THIS_LAYOUT ? end : CompactSkipper.skip(b, p, limit, STRUCT, maxLength);
  }

  /** Returned by {@link #layout} when the chunk does not even start as expected. */
  static final int NOT_THIS_LAYOUT = -2;

  /**
   * {@link #skip} for chunks that start as expected (file_offset, meta_data, type, encodings), the
   * rest walked generically wherever it differs; {@link #NOT_THIS_LAYOUT} for any other chunk.
   */
  static int layout(byte[] b, int p, int limit, int maxLength) {
    if (limit - p < 64) {
      return NOT_THIS_LAYOUT;
    }
    // ColumnChunk.file_offset (2), meta_data (3) {type (1), encodings (2) header
    int q = fields(b, p, limit, 4, I64_SKIP1 | STRUCT_NEXT << 8 | I32_NEXT << 16 | LIST_NEXT << 24, 0b0101);
    if (q < 0) {
      return NOT_THIS_LAYOUT;
    }
    q = metaData(b, q, limit, maxLength);
    if (q < 0) {
      return q;
    }
    // offset_index_offset (4), offset_index_length (5), column_index_offset (6), column_index_length (7), STOP
    int r = fields(b, q, limit, 2, I64_NEXT | I32_NEXT << 8, 0b11);
    int end = r < 0 ? FAIL : fields(b, r, limit, 3, I64_NEXT | I32_NEXT << 8, 0b011);
    return end >= 0 ? end : CompactSkipper.fields(b, q, limit, maxLength, 0, 3);
  }

  /**
   * ColumnMetaData from its encodings list header (field 2 already read) through its STOP.
   * Returns the position after it, or FAIL when even the generic walk refuses the bytes.
   */
  private static int metaData(byte[] b, int p, int limit, int maxLength) {
    int q = encodingsAndPath(b, p, limit, maxLength);
    if (q < 0) {
      return CompactSkipper.fields(b, p - 1, limit, maxLength, 1, 1); // from the encodings field header
    }
    // codec (4), num_values (5), total_uncompressed_size (6), total_compressed_size (7), data_page_offset (9)
    int r = fields(b, q, limit, 5, I32_NEXT | I64_NEXT << 8 | I64_NEXT << 16 | I64_NEXT << 24 | (long) I64_SKIP1 << 32,
        0b11111, true);
    if (r < 0) {
      return CompactSkipper.fields(b, q, limit, maxLength, 1, 3);
    }
    int lastId = 9;
    if (peek(b, r, limit) == I64_SKIP1) { // dictionary_page_offset (11)
      q = fields(b, r, limit, 1, I64_SKIP1, 1);
      if (q < 0) {
        return CompactSkipper.fields(b, r, limit, maxLength, 1, lastId);
      }
      r = q;
      lastId = 11;
    }
    if (peek(b, r, limit) == ((12 - lastId) << 4 | STRUCT)) { // statistics (12)
      q = CompactSkipper.fields(b, r + 1, limit, maxLength, 2, 0);
      if (q < 0) {
        return q;
      }
      r = q;
      lastId = 12;
    }
    if (peek(b, r, limit) == ((13 - lastId) << 4 | CompactReader.LIST)) { // encoding_stats (13)
      q = encodingStats(b, r + 1, limit);
      if (q < 0) {
        return CompactSkipper.fields(b, r, limit, maxLength, 1, lastId);
      }
      r = q;
      lastId = 13;
    }
    return peek(b, r, limit) == 0 ? r + 1 : CompactSkipper.fields(b, r, limit, maxLength, 1, lastId);
  }

  /** The encodings list (its header at p) and path_in_schema, ending where codec's header is. */
  private static int encodingsAndPath(byte[] b, int p, int limit, int maxLength) {
    if (p >= limit) {
      return FAIL;
    }
    int header = b[p];
    int type = header & 0x0f;
    int n = header >>> 4;
    if (header < 0 || type < CompactReader.I16 || type > CompactReader.I64) {
      return FAIL; // also lists of 8 or more encodings (their header byte has the high bit set)
    }
    // the list header, n varints, then path_in_schema's field header (3) and list header
    int q = values(b, p + 1, limit, n);
    if (q < 0 || limit - q < 2 || b[q] != LIST_NEXT) {
      return FAIL;
    }
    int path = b[q + 1] & 0xff;
    int count = path >>> 4;
    if ((path & 0x0f) != CompactReader.BINARY || count == 15) {
      return FAIL;
    }
    q += 2;
    for (int i = 0; i < count; i++) {
      if (q >= limit) {
        return FAIL;
      }
      int length = b[q]; // one-byte lengths only
      if (length < 0 || length > maxLength || length >= limit - q) {
        return FAIL;
      }
      q += 1 + length;
    }
    return q;
  }

  /** encoding_stats: a list (header at p) of PageEncodingStats {page_type, encoding, count}. */
  private static int encodingStats(byte[] b, int p, int limit) {
    if (p >= limit) {
      return FAIL;
    }
    int header = b[p];
    if ((header & 0x0f) != STRUCT || header < 0 || header >>> 4 == 15) {
      return FAIL;
    }
    int q = p + 1;
    for (int n = header >>> 4; n > 0 && q >= 0; n--) {
      q = fields(b, q, limit, 4, I32_NEXT | I32_NEXT << 8 | I32_NEXT << 16, 0b0111);
    }
    return q;
  }

  /**
   * Skips {@code n} (at most 8) tokens within the next WINDOW bytes: token i is the byte
   * {@code headers >>> 8i} (a field header or STOP, below 0x80), followed by a varint when bit i
   * of {@code withValue} is set. FAIL when the bytes are not exactly that.
   */
  private static int fields(byte[] b, int p, int limit, int n, long headers, int withValue) {
    return fields(b, p, limit, n, headers, withValue, false);
  }

  /**
   * {@code wide}: 8 bytes more, for codec ... data_page_offset, whose sizes and offsets take more
   * than 16 bytes in files of a few hundred MB (splitting the run instead cost the small files
   * as much as the window; a narrow window made the big ones slower than the generic walk).
   */
  private static int fields(byte[] b, int p, int limit, int n, long headers, int withValue, boolean wide) {
    int window = wide ? WINDOW + 8 : WINDOW;
    if (limit - p < window) {
      return FAIL;
    }
    long ends = wide ? ends(b, p) | gather(b, p + 16) << 16 : ends(b, p);
    int at = 0;
    for (int i = 0; i < n; i++) {
      if (at >= window || b[p + at] != (byte) (headers >>> (i << 3))) {
        return FAIL;
      }
      ends &= ends - 1; // the header's own bit: it is the lowest, as the byte matched
      at++;
      if ((withValue >>> i & 1) != 0) {
        int end = Long.numberOfTrailingZeros(ends);
        if (end - at >= 10) { // no end in the window (ctz 64), or longer than a varint may be
          return FAIL;
        }
        ends &= ends - 1;
        at = end + 1;
      }
    }
    return p + at;
  }

  /** Skips {@code n} varints (at most 8) within the next WINDOW bytes. */
  private static int values(byte[] b, int p, int limit, int n) {
    if (limit - p < WINDOW) {
      return FAIL;
    }
    long ends = ends(b, p);
    int at = 0;
    for (int i = 0; i < n; i++) {
      int end = Long.numberOfTrailingZeros(ends);
      if (end - at >= 10) {
        return FAIL;
      }
      ends &= ends - 1;
      at = end + 1;
    }
    return p + at;
  }

  /** The byte at p, or -1 past the end. */
  private static int peek(byte[] b, int p, int limit) {
    return p < limit ? b[p] : -1;
  }

  /** Bit i set when byte {@code b[p + i]} (i < WINDOW) has its high bit clear. */
  private static long ends(byte[] b, int p) {
    return gather(b, p) | gather(b, p + 8) << 8;
  }

  /** Bit i set when byte {@code b[p + i]} (i < 8) has its high bit clear. */
  private static long gather(byte[] b, int p) {
    return ((~(long) LONG_LE.get(b, p) & HIGH_BITS) >>> 7) * GATHER >>> 56;
  }
}
