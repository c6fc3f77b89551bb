package io.turboparquet.fuzz;

import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * parquet-java's codecs for the oracle, except LZ4_RAW and LZ4 (Hadoop framing), decoded by the
 * LZ4 library the core uses (aircompressor) into a new zeroed array each time. A match offset of 0,
 * which LZ4 forbids, has no right answer: aircompressor copies output bytes it has not written
 * (what its over-long literal copy left there, else the buffer's old bytes), lz4-java (Hadoop's
 * codec) others. parquet-java's pooled LZ4_RAW decoder keeps its output buffer between pages and
 * files, so its answer for such a page would depend on what it read before; its LZ4 codec would
 * differ from the core's on every such page. Both would be no oracle.
 */
final class FreshLz4Codecs implements CompressionCodecFactory {
  private final CompressionCodecFactory parquet;

  FreshLz4Codecs(CompressionCodecFactory parquet) {
    this.parquet = parquet;
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return parquet.getCompressor(codec);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return switch (codec) {
      case LZ4_RAW -> FRESH_LZ4_RAW;
      case LZ4 -> FRESH_LZ4_HADOOP;
      default -> parquet.getDecompressor(codec);
    };
  }

  @Override
  public void release() {
    parquet.release();
  }

  private static final BytesInputDecompressor FRESH_LZ4_RAW = fresh(FreshLz4Codecs::decodeRaw);
  private static final BytesInputDecompressor FRESH_LZ4_HADOOP = fresh(FreshLz4Codecs::decodeHadoop);

  @FunctionalInterface
  private interface Decode {
    byte[] decode(byte[] in, int uncompressedSize) throws IOException;
  }

  private static BytesInputDecompressor fresh(Decode decode) {
    return new BytesInputDecompressor() {
      @Override
      public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
        return BytesInput.from(decode.decode(bytes.toByteArray(), uncompressedSize));
      }

      @Override
      public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
          throws IOException {
        byte[] in = new byte[compressedSize];
        input.duplicate().get(in);
        output.duplicate().put(decode.decode(in, uncompressedSize));
      }

      @Override
      public void release() {}
    };
  }

  /** Hadoop's block framing, as parquet-java's LZ4 codec reads it, over aircompressor's blocks. */
  private static byte[] decodeHadoop(byte[] in, int uncompressedSize) throws IOException {
    try (InputStream blocks = new Lz4HadoopStreams(Math.max(1, uncompressedSize))
        .createInputStream(new ByteArrayInputStream(in))) {
      byte[] out = blocks.readNBytes(uncompressedSize);
      if (out.length != uncompressedSize) {
        throw new IOException("LZ4 page decompressed to " + out.length + " bytes, its header says " + uncompressedSize);
      }
      return out;
    }
  }

  private static byte[] decodeRaw(byte[] in, int uncompressedSize) throws IOException {
    byte[] out = new byte[uncompressedSize];
    if (in.length == 0 && uncompressedSize == 0) {
      return out; // an empty page stored empty; aircompressor refuses empty input
    }
    int n = new Lz4Decompressor().decompress(in, 0, in.length, out, 0, out.length);
    if (n != uncompressedSize) {
      throw new IOException("LZ4_RAW page decompressed to " + n + " bytes, its header says " + uncompressedSize);
    }
    return out;
  }
}
