package io.turboparquet.fuzz;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * parquet-java's codecs for the oracle, except LZ4_RAW, decoded by the same library (aircompressor)
 * into a new zeroed array each time. parquet-java's pooled LZ4_RAW decoder keeps its output buffer
 * between pages and files, and aircompressor copies bytes of it for a match offset of 0 (which LZ4
 * forbids): its answer for such a page would depend on what it read before, and be no oracle.
 */
final class FreshLz4RawCodecs implements CompressionCodecFactory {
  private final CompressionCodecFactory parquet;

  FreshLz4RawCodecs(CompressionCodecFactory parquet) {
    this.parquet = parquet;
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return parquet.getCompressor(codec);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return codec == CompressionCodecName.LZ4_RAW ? FRESH_LZ4_RAW : parquet.getDecompressor(codec);
  }

  @Override
  public void release() {
    parquet.release();
  }

  private static final BytesInputDecompressor FRESH_LZ4_RAW = new BytesInputDecompressor() {
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      return BytesInput.from(decode(bytes.toByteArray(), uncompressedSize));
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.duplicate().get(in);
      output.duplicate().put(decode(in, uncompressedSize));
    }

    @Override
    public void release() {}
  };

  private static byte[] decode(byte[] in, int uncompressedSize) throws IOException {
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
