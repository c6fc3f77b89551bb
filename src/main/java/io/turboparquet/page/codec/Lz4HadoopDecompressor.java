package io.turboparquet.page.codec;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;

/**
 * LZ4 (deprecated): Hadoop's BlockCompressorStream framing, which is what parquet-mr writes: one or
 * more blocks of [4-byte big-endian uncompressed length] followed by one or more [4-byte big-endian
 * compressed length][raw LZ4 block] chunks that together decompress to that length.
 *
 * <p>Older parquet-cpp / Arrow writers stored other things under this codec id. When the Hadoop
 * framing does not validate (a length inconsistent with the page sizes, or a chunk that does not
 * decode), this falls back to the LZ4 frame format when the page starts with its magic (decoded by
 * commons-compress, checksums included) and otherwise to a single raw LZ4 block, like Arrow's
 * reader does.
 */
final class Lz4HadoopDecompressor extends BaseDecompressor {
  private static final int FRAME_MAGIC = 0x184D2204; // little-endian on the wire: 04 22 4D 18

  private final Lz4Decompressor lz4 = new Lz4Decompressor();
  private byte[] chunk;

  Lz4HadoopDecompressor() {
    super("LZ4", false);
  }

  @Override
  boolean zeroesDestination() {
    return true; // see Lz4Blocks
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    String hadoopProblem = tryHadoop(in, out);
    if (hadoopProblem == null) {
      return;
    }
    String frameProblem = null;
    if (in.limit() >= 4 && Integer.reverseBytes(in.getInt(0)) == FRAME_MAGIC) {
      frameProblem = tryFrame(in, out);
      if (frameProblem == null) {
        return;
      }
    }
    String rawProblem = tryRaw(in, out);
    if (rawProblem == null) {
      return;
    }
    throw error(
        "%d-byte page is neither Hadoop-framed LZ4 (%s)%s nor a raw LZ4 block (%s) of %d bytes",
        in.limit(),
        hadoopProblem,
        frameProblem == null ? "" : ", an LZ4 frame (" + frameProblem + ")",
        rawProblem,
        out.limit());
  }

  /** Returns null on success, else what did not validate. */
  private String tryHadoop(ByteBuffer in, ByteBuffer out) {
    int inLimit = in.limit();
    int outLimit = out.limit();
    int ip = 0;
    int op = 0;
    try {
      while (ip < inLimit) {
        if (inLimit - ip < 4) {
          return "truncated block header at byte " + ip;
        }
        int blockLength = in.getInt(ip); // ByteBuffer views are big-endian
        ip += 4;
        if (blockLength < 0 || blockLength > outLimit - op) {
          return "block at byte " + (ip - 4) + " claims " + (blockLength & 0xFFFFFFFFL)
              + " bytes, only " + (outLimit - op) + " left";
        }
        if (blockLength == 0) {
          break; // Hadoop's BlockDecompressorStream stops at a zero-length block
        }
        int blockEnd = op + blockLength;
        while (op < blockEnd) {
          if (inLimit - ip < 4) {
            return "truncated chunk header at byte " + ip;
          }
          int chunkLength = in.getInt(ip);
          ip += 4;
          if (chunkLength < 0 || chunkLength > inLimit - ip) {
            return "chunk at byte " + (ip - 4) + " claims " + (chunkLength & 0xFFFFFFFFL)
                + " compressed bytes, only " + (inLimit - ip) + " left";
          }
          op += Lz4Blocks.decompress(lz4, in, ip, chunkLength, out, op, blockEnd);
          ip += chunkLength; // each chunk moves ip forward by at least 4: no endless loop
        }
      }
    } catch (RuntimeException e) {
      return "chunk does not decode: " + e.getMessage();
    }
    if (op != outLimit) {
      return "decompressed to " + op + " bytes";
    }
    return null;
  }

  private String tryRaw(ByteBuffer in, ByteBuffer out) {
    try {
      int produced = Lz4Blocks.decompress(lz4, in, 0, in.limit(), out, 0, out.limit());
      return produced == out.limit() ? null : "decompressed to " + produced + " bytes";
    } catch (RuntimeException e) {
      return "does not decode: " + e.getMessage();
    }
  }

  private String tryFrame(ByteBuffer in, ByteBuffer out) {
    if (chunk == null) {
      chunk = new byte[StreamCopy.CHUNK];
    }
    try (InputStream frames = new FramedLZ4CompressorInputStream(new ByteBufferInputStream(in), true)) {
      long produced = StreamCopy.readExactly(frames, out, chunk);
      return produced == out.limit() ? null : "decompressed to " + produced + " bytes";
    } catch (IOException | RuntimeException e) {
      return "does not decode: " + e.getMessage();
    }
  }
}
