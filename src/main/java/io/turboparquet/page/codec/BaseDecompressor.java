package io.turboparquet.page.codec;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Shared plumbing: range checks, {@link ByteBuffer} views of the two ranges (falling back to a
 * reusable scratch copy when a view is impossible), and turning library exceptions into {@link
 * IOException}s that name the codec.
 */
abstract class BaseDecompressor implements Decompressor {
  private final String codec;
  private final boolean directOnly;
  private ByteBuffer srcScratch;
  private ByteBuffer dstScratch;

  /**
   * @param directOnly whether {@link #decompress(ByteBuffer, ByteBuffer)} needs direct buffers
   *     (native libraries); otherwise heap buffers with an accessible array are passed as they are
   */
  BaseDecompressor(String codec, boolean directOnly) {
    this.codec = codec;
    this.directOnly = directOnly;
  }

  @Override
  public final void decompress(
      ByteBuf src, int srcIndex, int srcLength, ByteBuf dst, int dstIndex, int dstLength)
      throws IOException {
    checkRange(src, srcIndex, srcLength, "source");
    checkRange(dst, dstIndex, dstLength, "destination");
    if (srcLength == 0 && dstLength == 0) {
      return; // an empty page body: nothing was compressed, whatever the codec
    }
    if (srcLength == 0) {
      throw error("page has no compressed bytes, header says %d uncompressed", dstLength);
    }
    if (zeroesDestination()) {
      dst.setZero(dstIndex, dstLength); // a memset: a few percent of an LZ4 page's decode
    }
    ByteBuffer in = sourceView(src, srcIndex, srcLength);
    ByteBuffer out = destinationView(dst, dstIndex, dstLength);
    boolean copyBack = out == null;
    if (copyBack) {
      out = scratchDestination(dstLength);
    }
    try {
      decompress(in, out);
    } catch (CodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CodecException(
          String.format(
              "%s: cannot decompress %d-byte page to %d bytes: %s", codec, srcLength, dstLength, e),
          e);
    }
    if (copyBack) {
      ByteBuffer result = out.duplicate();
      result.clear();
      dst.setBytes(dstIndex, result);
    }
  }

  @Override
  public final long measure(ByteBuf src, int srcIndex, int srcLength, long limit) throws IOException {
    checkRange(src, srcIndex, srcLength, "source");
    try {
      return measure(sourceView(src, srcIndex, srcLength), limit);
    } catch (CodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CodecException(String.format("%s: cannot decompress %d-byte page: %s", codec, srcLength, e), e);
    }
  }

  /**
   * Whether the destination is zeroed before decoding: for a decoder that may copy destination
   * bytes it has not written (aircompressor's LZ4 takes a match offset of 0, which the format
   * forbids), so that such a page reads zeros there, the same every time and as parquet-java
   * (also aircompressor, on new heap arrays) reads it, never bytes the buffer held before (an
   * earlier page, or another query's memory from a pooled allocator).
   */
  boolean zeroesDestination() {
    return false;
  }

  /** As {@link Decompressor#measure}, over {@code in}'s [position, limit); -1 by default. */
  long measure(ByteBuffer in, long limit) throws IOException {
    return -1;
  }

  /**
   * Decompresses all of {@code in} (position 0, limit = compressed length) into {@code out}
   * (position 0, limit = capacity = uncompressed length), filling {@code out} exactly or throwing.
   * Both are views owned by this call: their positions and limits may be changed freely.
   */
  abstract void decompress(ByteBuffer in, ByteBuffer out) throws IOException;

  final String codec() {
    return codec;
  }

  final CodecException error(String format, Object... args) {
    return new CodecException(codec + ": " + String.format(format, args));
  }

  final CodecException error(Throwable cause, String format, Object... args) {
    return new CodecException(codec + ": " + String.format(format, args), cause);
  }

  final CodecException lengthMismatch(long produced, int expected) {
    return error("page decompressed to %d bytes, header says %d", produced, expected);
  }

  final CodecException tooLong(int expected) {
    return error("page decompressed to more than %d bytes, header says %d", expected, expected);
  }

  private static void checkRange(ByteBuf buf, int index, int length, String what) {
    if (index < 0 || length < 0 || index > buf.capacity() - length) {
      throw new IndexOutOfBoundsException(
          String.format(
              "%s range [%d, +%d) outside buffer capacity %d", what, index, length, buf.capacity()));
    }
  }

  /** A readable view of {@code buf[index, +length)} at position 0, or a scratch copy. */
  private ByteBuffer sourceView(ByteBuf buf, int index, int length) {
    if (buf.nioBufferCount() == 1) {
      ByteBuffer view = buf.nioBuffer(index, length);
      if (view.isDirect() || (!directOnly && view.hasArray())) {
        return view.slice();
      }
    }
    if (!directOnly && buf.hasArray()) {
      return ByteBuffer.wrap(buf.array(), buf.arrayOffset() + index, length).slice();
    }
    srcScratch = ensure(srcScratch, length);
    ByteBuffer copy = window(srcScratch, length);
    buf.getBytes(index, copy);
    copy.clear();
    return copy;
  }

  /** A writable view sharing {@code buf[index, +length)}'s memory, or null when there is none. */
  private ByteBuffer destinationView(ByteBuf buf, int index, int length) {
    if (buf.isDirect() && buf.nioBufferCount() == 1) {
      ByteBuffer view = buf.nioBuffer(index, length);
      if (view.isDirect() && !view.isReadOnly()) {
        return view.slice();
      }
    }
    if (!directOnly && buf.hasArray()) {
      return ByteBuffer.wrap(buf.array(), buf.arrayOffset() + index, length).slice();
    }
    return null;
  }

  private ByteBuffer scratchDestination(int length) {
    dstScratch = ensure(dstScratch, length);
    return window(dstScratch, length);
  }

  private ByteBuffer ensure(ByteBuffer scratch, int length) {
    if (scratch != null && scratch.capacity() >= length) {
      return scratch;
    }
    int capacity = Math.max(length, scratch == null ? 0 : (int) Math.min(Integer.MAX_VALUE - 16, 2L * scratch.capacity()));
    return directOnly ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
  }

  /** {@code scratch[0, length)} as a buffer of capacity exactly {@code length}. */
  private static ByteBuffer window(ByteBuffer scratch, int length) {
    ByteBuffer view = scratch.duplicate();
    view.clear().limit(length);
    return view.slice();
  }
}
