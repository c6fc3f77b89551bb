package io.turboparquet.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.decode.DecodeException;
import io.turboparquet.decode.Decoders;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.decode.RleBitPackedHybridDecoder;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.decode.ValuesDecoder;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.thrift.BloomFilterHeaderDecoder;
import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import io.turboparquet.format.thrift.PageIndexDecoder;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.page.codec.Decompressor;
import io.turboparquet.page.codec.Decompressors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The coverage-guided fuzzer's entry point (Jazzer): one input drives one part of the core, chosen
 * by its first byte, and must end in a documented outcome. The parts: a whole file through the
 * scan (the mutation fuzzer's contract: {@link FuzzRunner#ours}), the footer, page header, page
 * index and bloom filter header decoders, every values decoder, the level decoder, dictionaries
 * and the decompressors. A decoder must also give the same values whether read in one call or in
 * pieces with skips between: batch sizes must not change what a page holds.
 *
 * <p>Anything else (a JDK exception escaping, an error, a hang Jazzer times out, a crash) is a
 * finding: an {@link AssertionError} naming what broke, or the throwable itself. {@link
 * JazzerCampaign} runs it under Jazzer ({@code fuzzerTestOneInput} is Jazzer's entry point): for
 * half a minute in CI ({@code CoverageFuzzTest}), for as long as asked by {@code bin/fuzz-coverage};
 * {@code CoverageRegressionTest} replays the seeds and past findings without Jazzer.
 */
public final class CoverageTarget {
  static final String FILE = "jazzer.parquet";
  /** Decoder values per input: enough for several runs, miniblocks and bit-packed groups. */
  private static final int MAX_VALUES = 4096;
  private static final int MAX_DECOMPRESSED = 1 << 16;
  private static final PhysicalType[] TYPES = PhysicalType.values();
  private static final Encoding[] ENCODINGS = Encoding.values();
  private static final CompressionCodec[] CODECS = CompressionCodec.values();

  private static FuzzRunner runner;

  private CoverageTarget() {}

  /** The parts, by the input's first byte (modulo their count). */
  enum Part { FILE, FOOTER, PAGE_HEADER, COLUMN_INDEX, OFFSET_INDEX, BLOOM_HEADER, VALUES, LEVELS, DICTIONARY,
    DECOMPRESS }

  public static void fuzzerTestOneInput(byte[] input) {
    if (input.length < 2) {
      return;
    }
    Part part = Part.values()[(input[0] & 0xff) % Part.values().length];
    byte[] rest = Arrays.copyOfRange(input, 1, input.length);
    try {
      switch (part) {
        case FILE -> file(rest);
        case FOOTER -> FooterDecoder.decode(FILE, rest.length + 8L, rest, 0, rest.length,
            (rest[0] & 1) == 0 ? FooterOptions.DEFAULT : FooterOptions.DEFAULT.withStatistics(FooterOptions.ColumnSelector.ALL));
        case PAGE_HEADER -> new PageHeaderDecoder(FILE).read(new ByteArrayInputStream(rest), 4, "row group 0, column c");
        case COLUMN_INDEX -> PageIndexDecoder.readColumnIndex(FILE, rest, 0, rest.length);
        case OFFSET_INDEX -> PageIndexDecoder.readOffsetIndex(FILE, rest, 0, rest.length);
        case BLOOM_HEADER -> BloomFilterHeaderDecoder.read(FILE, "bloom filter of c", rest, 0, rest.length);
        case VALUES -> values(rest);
        case LEVELS -> levels(rest);
        case DICTIONARY -> dictionary(rest);
        case DECOMPRESS -> decompress(rest);
      }
    } catch (DecodeException | IndexOutOfBoundsException e) {
      if (part.ordinal() < Part.VALUES.ordinal()) {
        throw finding(part, e); // a decoder's documented errors; past the decoders only the core's own
      }
    } catch (IOException e) {
      if (part != Part.DECOMPRESS && FuzzRunner.classify(e, FILE).outcome().isFailure()) {
        throw finding(part, e); // a codec's documented error is an IOException naming the codec
      }
    } catch (RuntimeException e) {
      if (FuzzRunner.classify(e, FILE).outcome().isFailure()) {
        throw finding(part, e);
      }
    }
  }

  private static AssertionError finding(Part part, Throwable e) {
    return new AssertionError(part + ": " + CaseResult.describe(e), e);
  }

  /** A whole file through the scan in a read mode the second byte picks. */
  private static void file(byte[] rest) {
    ReadMode mode = ReadMode.draw(rest[0]);
    byte[] file = Arrays.copyOfRange(rest, 1, rest.length);
    CaseResult r = runner().ours(FILE, file, mode, mode.options());
    if (r.outcome().isFailure()) {
      throw new AssertionError("FILE: " + r.outcome() + " " + r.detail());
    }
  }

  private static synchronized FuzzRunner runner() {
    if (runner == null) {
      try {
        Path dir = Files.createTempDirectory("turbo-parquet-jazzer");
        dir.toFile().deleteOnExit();
        runner = new FuzzRunner(dir, 10_000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return runner;
  }

  /**
   * Layout: encoding, physical type, type length, value count (2 bytes), a seed for the pieces;
   * for the dictionary encodings a dictionary size (1 byte) and byte length (2 bytes) and that
   * many PLAIN dictionary bytes; then the page's values section.
   */
  private static void values(byte[] in) {
    if (in.length < 6) {
      return;
    }
    Encoding encoding = ENCODINGS[(in[0] & 0xff) % ENCODINGS.length];
    PhysicalType type = TYPES[(in[1] & 0xff) % TYPES.length];
    int typeLength = 1 + (in[2] & 15);
    int count = ((in[3] & 0xff) << 8 | (in[4] & 0xff)) % MAX_VALUES;
    long seed = in[5];
    int at = 6;
    TrackingBufferSource buffers = new TrackingBufferSource();
    Dictionary dictionary = null;
    try {
      if (encoding.isDictionary()) {
        if (in.length < at + 3) {
          return;
        }
        int entries = in[at] & 0xff;
        int length = Math.min((in[at + 1] & 0xff) << 8 | (in[at + 2] & 0xff), in.length - at - 3);
        dictionary = Dictionary.read(Unpooled.wrappedBuffer(in, at + 3, length), 0, length, entries, type, typeLength,
            buffers);
        at += 3 + length;
      }
      ByteBuf page = Unpooled.wrappedBuffer(in, at, in.length - at);
      int width = width(type, typeLength);
      try (ValueSink whole = new ValueSink(buffers, width); ValueSink pieces = new ValueSink(buffers, width)) {
        ValuesDecoder one = Decoders.create(encoding, type, typeLength, dictionary);
        one.init(page, 0, page.capacity(), count);
        one.read(whole, count);
        check(whole.position() == count, "VALUES: %s read %d of %d values", encoding, whole.position(), count);
        boolean[] skipped = readInPieces(Decoders.create(encoding, type, typeLength, dictionary), page, count, seed,
            pieces);
        for (int i = 0; i < count; i++) {
          check(skipped[i] || Arrays.equals(value(whole, i), value(pieces, i)),
              "VALUES: %s %s value %d of %d differs when read in pieces", encoding, type, i, count);
        }
      }
    } finally {
      if (dictionary != null) {
        dictionary.close();
      }
      check(buffers.outstanding() == 0, "VALUES: %d buffers held after close", buffers.outstanding());
    }
  }

  /** Reads {@code count} values in pieces of 1 to 97, skipping about one piece in four. */
  private static boolean[] readInPieces(ValuesDecoder d, ByteBuf page, int count, long seed, ValueSink sink) {
    d.init(page, 0, page.capacity(), count);
    SplittableRandom r = new SplittableRandom(seed);
    boolean[] skipped = new boolean[count];
    for (int done = 0; done < count; ) {
      int n = Math.min(count - done, 1 + r.nextInt(97));
      if (r.nextInt(4) == 0) {
        d.skip(n);
        sink.fill(n); // keeps slot i for value i
        Arrays.fill(skipped, done, done + n, true);
      } else {
        d.read(sink, n);
      }
      done += n;
      check(sink.position() == done, "VALUES: at %d values the sink holds %d", done, sink.position());
    }
    return skipped;
  }

  private static int width(PhysicalType type, int typeLength) {
    return switch (type) {
      case BYTE_ARRAY -> ValueSink.VARIABLE;
      case FIXED_LEN_BYTE_ARRAY -> typeLength;
      case BOOLEAN -> 1;
      default -> type.fixedWidth();
    };
  }

  private static byte[] value(ValueSink sink, int i) {
    if (sink.isVariableWidth()) {
      int from = sink.offsets().getIntLE(4 * i);
      int to = sink.offsets().getIntLE(4 * (i + 1));
      byte[] out = new byte[to - from];
      sink.values().getBytes(from, out);
      return out;
    }
    byte[] out = new byte[sink.width()];
    sink.values().getBytes(i * sink.width(), out);
    return out;
  }

  /** Layout: bit width, value count (2 bytes), a seed for the pieces; then the levels. */
  private static void levels(byte[] in) {
    if (in.length < 4) {
      return;
    }
    int bitWidth = in[0] % 40; // past 32 too: a hostile header's width
    int count = ((in[1] & 0xff) << 8 | (in[2] & 0xff)) % MAX_VALUES;
    ByteBuf buf = Unpooled.wrappedBuffer(in, 4, in.length - 4);
    RleBitPackedHybridDecoder one = new RleBitPackedHybridDecoder();
    one.init(buf, 0, buf.capacity(), bitWidth);
    int[] whole = new int[count];
    one.readInts(whole, 0, count);
    RleBitPackedHybridDecoder pieces = new RleBitPackedHybridDecoder();
    pieces.init(buf, 0, buf.capacity(), bitWidth);
    SplittableRandom r = new SplittableRandom(in[3]);
    byte[] asLevels = new byte[count];
    int[] asInts = new int[count];
    for (int done = 0; done < count; ) {
      int n = Math.min(count - done, 1 + r.nextInt(97));
      switch (r.nextInt(3)) {
        case 0 -> pieces.skip(n);
        case 1 -> {
          pieces.readInts(asInts, done, n);
          for (int i = done; i < done + n; i++) {
            check(asInts[i] == whole[i], "LEVELS: value %d of %d differs when read in pieces", i, count);
          }
        }
        default -> {
          if (bitWidth > 8) {
            pieces.skip(n);
          } else {
            pieces.readLevels(asLevels, done, n);
            for (int i = done; i < done + n; i++) {
              check((asLevels[i] & 0xff) == whole[i], "LEVELS: level %d of %d differs when read in pieces", i, count);
            }
          }
        }
      }
      done += n;
    }
  }

  /** Layout: physical type, type length, entry count (2 bytes); then the PLAIN dictionary page. */
  private static void dictionary(byte[] in) {
    if (in.length < 4) {
      return;
    }
    PhysicalType type = TYPES[(in[0] & 0xff) % TYPES.length];
    int entries = ((in[2] & 0xff) << 8 | (in[3] & 0xff)) - (in[1] < 0 ? 1 << 16 : 0); // negative counts too
    TrackingBufferSource buffers = new TrackingBufferSource();
    ByteBuf page = Unpooled.wrappedBuffer(in, 4, in.length - 4);
    try (Dictionary d = Dictionary.read(page, 0, page.capacity(), entries, type, 1 + (in[1] & 15), buffers)) {
      check(d.size() == entries, "DICTIONARY: %d entries read, the page says %d", d.size(), entries);
    } finally {
      check(buffers.outstanding() == 0, "DICTIONARY: %d buffers held after close", buffers.outstanding());
    }
  }

  /** Layout: codec, uncompressed size the header would claim (2 bytes); then the compressed body. */
  private static void decompress(byte[] in) throws IOException {
    if (in.length < 3) {
      return;
    }
    CompressionCodec codec = CODECS[(in[0] & 0xff) % CODECS.length];
    int claimed = ((in[1] & 0xff) << 8 | (in[2] & 0xff)) % MAX_DECOMPRESSED;
    Decompressor d = Decompressors.create(codec);
    ByteBuf src = Unpooled.directBuffer(in.length - 3).writeBytes(in, 3, in.length - 3);
    ByteBuf dst = Unpooled.directBuffer(Math.max(1, claimed));
    try {
      long measured = d.measure(src, 0, src.capacity(), claimed);
      d.decompress(src, 0, src.capacity(), dst, 0, claimed);
      check(measured == -1 || measured == claimed, "DECOMPRESS: %s measured %d bytes, decompressed %d", codec, measured,
          claimed);
    } finally {
      src.release();
      dst.release();
    }
  }

  private static void check(boolean ok, String format, Object... args) {
    if (!ok) {
      throw new AssertionError(String.format(format, args));
    }
  }
}
