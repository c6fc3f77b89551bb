package io.turboparquet.page.codec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * GZIP: one or more concatenated gzip members (RFC 1952), each header parsed here (FEXTRA, FNAME,
 * FCOMMENT, FHCRC), its raw deflate data inflated straight between the two buffers by {@link
 * Inflater}'s ByteBuffer API, and its trailer's CRC32 and ISIZE checked.
 *
 * <p>Lenient like Hadoop's codec: a page that starts with a zlib header (RFC 1950) instead of the
 * gzip magic is inflated as a zlib stream (whose Adler-32 the inflater checks). Bytes after the
 * last complete member that do not start another member are ignored, as {@code GZIPInputStream}
 * does; the page must still have produced exactly the promised size.
 */
final class GzipDecompressor extends BaseDecompressor {
  private static final int FTEXT_RESERVED = 0xE0;
  private static final int FHCRC = 0x02;
  private static final int FEXTRA = 0x04;
  private static final int FNAME = 0x08;
  private static final int FCOMMENT = 0x10;

  private final CRC32 crc = new CRC32();
  private final ByteBuffer probe = ByteBuffer.allocate(64);
  private Inflater rawInflater;
  private Inflater zlibInflater;

  GzipDecompressor() {
    super("GZIP", false);
  }

  /** Through the JDK's streams, which read concatenated gzip members (or one zlib stream) the same way. */
  @Override
  long measure(ByteBuffer in, long limit) throws IOException {
    boolean gzip = in.limit() >= 2 && (in.get(0) & 0xFF) == 0x1F && (in.get(1) & 0xFF) == 0x8B;
    InputStream raw = new ByteBufferInputStream(in);
    try (InputStream inflated = gzip ? new GZIPInputStream(raw) : new InflaterInputStream(raw)) {
      return StreamCopy.count(inflated, new byte[StreamCopy.CHUNK], limit);
    }
  }

  @Override
  void decompress(ByteBuffer in, ByteBuffer out) throws IOException {
    int limit = in.limit();
    int pos = 0;
    int members = 0;
    while (pos < limit) {
      int b0 = in.get(pos) & 0xFF;
      int b1 = pos + 1 < limit ? in.get(pos + 1) & 0xFF : -1;
      if (b0 == 0x1F && b1 == 0x8B) {
        int memberStart = out.position();
        pos = skipHeader(in, pos);
        pos = inflate(raw(), in, pos, out);
        if (limit - pos < 8) {
          throw error("truncated gzip trailer: %d of 8 bytes", limit - pos);
        }
        int storedCrc = intLE(in, pos);
        int storedSize = intLE(in, pos + 4);
        pos += 8;
        ByteBuffer produced = out.duplicate();
        produced.limit(out.position()).position(memberStart);
        crc.reset();
        crc.update(produced);
        if ((int) crc.getValue() != storedCrc) {
          throw error("gzip member %d: CRC32 is %08x, trailer says %08x", members + 1, (int) crc.getValue(), storedCrc);
        }
        if (out.position() - memberStart != storedSize) {
          throw error("gzip member %d: inflated to %d bytes, trailer says %d",
              members + 1, out.position() - memberStart, storedSize & 0xFFFFFFFFL);
        }
      } else if (members == 0 && isZlibHeader(b0, b1)) {
        pos = inflate(zlib(), in, pos, out);
      } else if (members == 0) {
        throw error("not a gzip or zlib stream: starts with %02x %02x", b0, b1 & 0xFF);
      } else {
        break; // trailing bytes that are not another member
      }
      members++;
    }
    if (out.hasRemaining()) {
      throw lengthMismatch(out.position(), out.limit());
    }
  }

  /**
   * Inflates one deflate (or zlib) stream starting at {@code in[pos]} into {@code out} from its
   * position on, and returns the index just past the stream's end.
   */
  private int inflate(Inflater inflater, ByteBuffer in, int pos, ByteBuffer out) throws IOException {
    inflater.reset();
    ByteBuffer input = in.duplicate();
    input.position(pos);
    inflater.setInput(input);
    try {
      while (!inflater.finished()) {
        long readBefore = inflater.getBytesRead();
        int n;
        if (out.hasRemaining()) {
          n = inflater.inflate(out);
        } else {
          // Output is full: the stream may still have to consume its end-of-block code.
          probe.clear();
          n = inflater.inflate(probe);
          if (n > 0) {
            throw tooLong(out.limit());
          }
        }
        if (n == 0 && !inflater.finished()) {
          if (inflater.needsDictionary()) {
            throw error("deflate stream needs a preset dictionary");
          }
          if (inflater.needsInput()) {
            throw error("truncated deflate stream after %d bytes of output", out.position());
          }
          if (inflater.getBytesRead() == readBefore) {
            throw error("deflate stream makes no progress at output byte %d", out.position());
          }
        }
      }
    } catch (DataFormatException e) {
      throw error(e, "corrupt deflate data after %d bytes of output: %s", out.position(), e.getMessage());
    }
    return in.limit() - inflater.getRemaining();
  }

  /** Returns the index of the first deflate byte after the gzip member header at {@code start}. */
  private int skipHeader(ByteBuffer in, int start) throws IOException {
    int limit = in.limit();
    if (limit - start < 10) {
      throw error("truncated gzip header: %d of 10 bytes", limit - start);
    }
    int method = in.get(start + 2) & 0xFF;
    if (method != 8) {
      throw error("unsupported gzip compression method %d", method);
    }
    int flags = in.get(start + 3) & 0xFF;
    if ((flags & FTEXT_RESERVED) != 0) {
      throw error("reserved gzip header flags set: %02x", flags);
    }
    int pos = start + 10;
    if ((flags & FEXTRA) != 0) {
      if (limit - pos < 2) {
        throw error("truncated gzip header: FEXTRA length missing");
      }
      int extraLength = (in.get(pos) & 0xFF) | (in.get(pos + 1) & 0xFF) << 8;
      pos += 2;
      if (limit - pos < extraLength) {
        throw error("truncated gzip header: FEXTRA says %d bytes, %d left", extraLength, limit - pos);
      }
      pos += extraLength;
    }
    if ((flags & FNAME) != 0) {
      pos = skipZeroTerminated(in, pos, "FNAME");
    }
    if ((flags & FCOMMENT) != 0) {
      pos = skipZeroTerminated(in, pos, "FCOMMENT");
    }
    if ((flags & FHCRC) != 0) {
      if (limit - pos < 2) {
        throw error("truncated gzip header: FHCRC missing");
      }
      int stored = (in.get(pos) & 0xFF) | (in.get(pos + 1) & 0xFF) << 8;
      ByteBuffer header = in.duplicate();
      header.limit(pos).position(start);
      crc.reset();
      crc.update(header);
      if (((int) crc.getValue() & 0xFFFF) != stored) {
        throw error("gzip header CRC16 is %04x, header says %04x", (int) crc.getValue() & 0xFFFF, stored);
      }
      pos += 2;
    }
    return pos;
  }

  private int skipZeroTerminated(ByteBuffer in, int pos, String field) throws IOException {
    int limit = in.limit();
    while (pos < limit) {
      if (in.get(pos++) == 0) {
        return pos;
      }
    }
    throw error("truncated gzip header: %s not terminated", field);
  }

  /** RFC 1950: deflate method, window at most 32K, check bits valid, no preset dictionary. */
  private static boolean isZlibHeader(int cmf, int flg) {
    return flg >= 0
        && (cmf & 0x0F) == 8
        && (cmf >>> 4) <= 7
        && ((cmf << 8) | flg) % 31 == 0
        && (flg & 0x20) == 0;
  }

  private static int intLE(ByteBuffer in, int pos) {
    return (in.get(pos) & 0xFF)
        | (in.get(pos + 1) & 0xFF) << 8
        | (in.get(pos + 2) & 0xFF) << 16
        | (in.get(pos + 3) & 0xFF) << 24;
  }

  private Inflater raw() {
    if (rawInflater == null) {
      rawInflater = new Inflater(true); // native state freed by the JDK's cleaner
    }
    return rawInflater;
  }

  private Inflater zlib() {
    if (zlibInflater == null) {
      zlibInflater = new Inflater(false);
    }
    return zlibInflater;
  }
}
