package io.turboparquet.page.codec;

import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * Decompresses one Parquet page body with one codec.
 *
 * <p>Instances are not thread-safe (one per column reader) but are reusable across any number of
 * pages; they keep small native or scratch state between calls.
 */
public interface Decompressor {
  /**
   * Decompresses exactly {@code src[srcIndex, srcIndex + srcLength)} into exactly {@code
   * dst[dstIndex, dstIndex + dstLength)}, where {@code dstLength} is the uncompressed size the page
   * header promises.
   *
   * <p>Never writes outside the destination range and never changes either buffer's reader or
   * writer index. Both buffers are normally direct; any other {@link ByteBuf} works too, through a
   * temporary copy.
   *
   * @throws IOException if the compressed bytes are corrupt or truncated, or do not decompress to
   *     exactly {@code dstLength} bytes; the message starts with the codec name, e.g. {@code
   *     "SNAPPY: page decompressed to 1000 bytes, header says 1024"}. The destination range's
   *     content is unspecified after a failure.
   * @throws IndexOutOfBoundsException if a range is negative or lies outside its buffer's capacity
   */
  void decompress(ByteBuf src, int srcIndex, int srcLength, ByteBuf dst, int dstIndex, int dstLength)
      throws IOException;

  /**
   * The bytes {@code src[srcIndex, srcIndex + srcLength)} really decompress to, found through a
   * small window instead of a destination of that size, stopping once past {@code limit}; -1 when
   * the codec cannot tell without a full destination. Lets a reader check an implausible size
   * claim before it allocates for it.
   *
   * @throws IOException if the compressed bytes are corrupt
   */
  default long measure(ByteBuf src, int srcIndex, int srcLength, long limit) throws IOException {
    return -1;
  }
}
