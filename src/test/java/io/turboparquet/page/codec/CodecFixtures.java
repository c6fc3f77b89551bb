package io.turboparquet.page.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import io.turboparquet.format.CompressionCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.xerial.snappy.Snappy;

/**
 * Plain data sets and the real compressors that turn them into page bodies: snappy-java, zstd-jni,
 * the JDK's gzip/deflate, aircompressor's LZ4 (raw and its Hadoop stream), hand-built Hadoop LZ4
 * framing, commons-compress's LZ4 frame writer, and brotli vectors made by the reference encoder.
 */
final class CodecFixtures {
  private CodecFixtures() {}

  /** One page: what the writer compressed, and the page body it stored. */
  record Case(CompressionCodec codec, String variant, String dataName, byte[] plain, byte[] compressed) {
    @Override
    public String toString() {
      return codec + "/" + variant + "/" + dataName + " (" + compressed.length + " -> " + plain.length + ")";
    }
  }

  @FunctionalInterface
  interface Encoder {
    byte[] encode(byte[] plain) throws IOException;
  }

  /** The plain data sets, by name. */
  static Map<String, byte[]> dataSets() {
    Map<String, byte[]> sets = new LinkedHashMap<>();
    sets.put("empty", new byte[0]);
    sets.put("one-byte", new byte[] {42});
    byte[] random = new byte[1 << 20];
    new Random(7).nextBytes(random);
    sets.put("random-1MiB", random);
    byte[] runs = new byte[1 << 20];
    for (int i = 0; i < runs.length; i++) {
      runs[i] = (byte) ((i / 4096) % 3 == 0 ? 0 : i % 17);
    }
    sets.put("compressible-1MiB", runs);
    sets.put("text-300KiB", text(300 * 1024));
    return sets;
  }

  static byte[] text(int size) {
    String[] words = {"lorem", "ipsum", "parquet", "column", "chunk", "page", "row", "group", "dolor",
        "sit", "amet", "consectetur", "decimal", "timestamp", "null", "repeated", "optional"};
    Random random = new Random(11);
    StringBuilder sb = new StringBuilder(size + 64);
    int line = 0;
    while (sb.length() < size) {
      sb.append(line++).append(':');
      int n = 3 + random.nextInt(12);
      for (int i = 0; i < n; i++) {
        sb.append(' ').append(words[random.nextInt(words.length)]);
      }
      sb.append('\n');
    }
    return Arrays.copyOf(sb.toString().getBytes(StandardCharsets.UTF_8), size);
  }

  /** Every way each codec is exercised, by codec and variant name. */
  static Map<String, Encoder> encoders(CompressionCodec codec) {
    Map<String, Encoder> e = new LinkedHashMap<>();
    switch (codec) {
      case UNCOMPRESSED -> e.put("identity", plain -> plain.clone());
      case SNAPPY -> e.put("snappy-java", Snappy::compress);
      case GZIP -> {
        e.put("GZIPOutputStream", CodecFixtures::gzip);
        e.put("two-members", plain -> concat(
            gzip(Arrays.copyOfRange(plain, 0, plain.length / 2)),
            gzip(Arrays.copyOfRange(plain, plain.length / 2, plain.length))));
        e.put("header-all-flags", plain -> gzipWithHeaderFields(plain, 9));
        e.put("header-flags+member+trailing-zeros", plain -> concat(
            gzipWithHeaderFields(Arrays.copyOfRange(plain, 0, plain.length / 3), 1),
            gzip(Arrays.copyOfRange(plain, plain.length / 3, plain.length)), new byte[5]));
        e.put("zlib", CodecFixtures::zlib);
      }
      case ZSTD -> {
        e.put("Zstd.compress", plain -> Zstd.compress(plain, 3));
        e.put("no-content-size+checksum", plain -> zstd(plain, false, true, 1));
        e.put("two-frames", plain -> concat(
            zstd(Arrays.copyOfRange(plain, 0, plain.length / 2), true, false, 3),
            zstd(Arrays.copyOfRange(plain, plain.length / 2, plain.length), false, false, 19)));
      }
      case LZ4_RAW -> e.put("aircompressor", CodecFixtures::lz4Block);
      case LZ4 -> {
        e.put("aircompressor-hadoop-stream", CodecFixtures::lz4HadoopStream);
        e.put("hadoop-blocks-64K-chunks-16K", plain -> lz4Hadoop(plain, 64 * 1024, 16 * 1024));
        e.put("hadoop-one-block-one-chunk", plain -> lz4Hadoop(plain, Math.max(1, plain.length), Math.max(1, plain.length)));
        e.put("raw-block-fallback", CodecFixtures::lz4Block);
        e.put("lz4-frame-fallback", CodecFixtures::lz4Frame);
      }
      case BROTLI, LZO -> { }
    }
    return e;
  }

  /** All round-trip cases: every codec's encoders over every data set, plus the brotli vectors. */
  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    Map<String, byte[]> data = dataSets();
    for (CompressionCodec codec : CompressionCodec.values()) {
      for (Map.Entry<String, Encoder> encoder : encoders(codec).entrySet()) {
        for (Map.Entry<String, byte[]> plain : data.entrySet()) {
          try {
            cases.add(new Case(codec, encoder.getKey(), plain.getKey(), plain.getValue(),
                encoder.getValue().encode(plain.getValue())));
          } catch (IOException ex) {
            throw new UncheckedIOException(ex);
          }
        }
      }
    }
    cases.addAll(brotliCases());
    return cases;
  }

  /**
   * Brotli page bodies made with Python's {@code brotli} 1.2.1 (the reference encoder; no brotli
   * encoder is on the Java test classpath): {@code brotli.compress(data, quality=Q[, lgwin=W])}.
   */
  static List<Case> brotliCases() {
    byte[] text = resource("brotli-text.txt");
    byte[] pattern = new byte[1 << 20];
    for (int i = 0; i < pattern.length; i++) {
      pattern[i] = (byte) ('a' + (i / 1000) % 26);
    }
    return List.of(
        brotli("q11", "text-60KB", text, "brotli-text.q11.br"),
        brotli("q1-lgwin16", "text-60KB", text, "brotli-text.q1.br"),
        brotli("q5", "random-32KiB", resource("brotli-random.bin"), "brotli-random.bin.br"),
        brotli("default", "empty", new byte[0], "brotli-empty.br"),
        brotli("default", "one-byte", new byte[] {'x'}, "brotli-one.br"),
        brotli("q9", "pattern-1MiB", pattern, "brotli-pattern-1m.br"));
  }

  private static Case brotli(String variant, String dataName, byte[] plain, String file) {
    return new Case(CompressionCodec.BROTLI, variant, dataName, plain, resource(file));
  }

  static byte[] resource(String name) {
    try (InputStream in = CodecFixtures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(plain);
    }
    return bytes.toByteArray();
  }

  static byte[] zlib(byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new DeflaterOutputStream(bytes, new Deflater(6))) {
      out.write(plain);
    }
    return bytes.toByteArray();
  }

  /** A gzip member with FTEXT, FEXTRA, FNAME, FCOMMENT and FHCRC all set, at deflate level. */
  static byte[] gzipWithHeaderFields(byte[] plain, int level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0x1F, (byte) 0x8B, 8, 0x1F, 1, 2, 3, 4, 0, 3});
    byte[] extra = {'T', 'P', 4, 0, 9, 8, 7, 6};
    out.write(extra.length);
    out.write(0);
    out.write(extra);
    out.write("page.bin\0".getBytes(StandardCharsets.ISO_8859_1));
    out.write("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
    CRC32 headerCrc = new CRC32();
    headerCrc.update(out.toByteArray());
    out.write((int) headerCrc.getValue());
    out.write((int) headerCrc.getValue() >>> 8);
    Deflater deflater = new Deflater(level, true);
    try (OutputStream deflate = new DeflaterOutputStream(out, deflater)) {
      deflate.write(plain);
      deflate.flush();
      ((DeflaterOutputStream) deflate).finish();
      CRC32 crc = new CRC32();
      crc.update(plain);
      out.write(intLE((int) crc.getValue()));
      out.write(intLE(plain.length));
    } finally {
      deflater.end();
    }
    return out.toByteArray();
  }

  static byte[] zstd(byte[] plain, boolean contentSize, boolean checksum, int level) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      ctx.setLevel(level).setContentSize(contentSize).setChecksum(checksum);
      return ctx.compress(plain);
    }
  }

  static byte[] lz4Block(byte[] plain) {
    Lz4Compressor compressor = new Lz4Compressor();
    byte[] out = new byte[compressor.maxCompressedLength(plain.length)];
    int n = compressor.compress(plain, 0, plain.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }

  static byte[] lz4HadoopStream(byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new Lz4HadoopStreams(100_000).createOutputStream(bytes)) {
      out.write(plain);
    }
    return bytes.toByteArray();
  }

  /**
   * Hadoop BlockCompressorStream framing built by hand: blocks of {@code blockSize} uncompressed
   * bytes, each split into chunks of {@code chunkSize} bytes compressed separately.
   */
  static byte[] lz4Hadoop(byte[] plain, int blockSize, int chunkSize) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int block = 0; block < plain.length; block += blockSize) {
      int blockEnd = Math.min(plain.length, block + blockSize);
      out.write(intBE(blockEnd - block));
      for (int chunk = block; chunk < blockEnd; chunk += chunkSize) {
        byte[] compressed = lz4Block(Arrays.copyOfRange(plain, chunk, Math.min(blockEnd, chunk + chunkSize)));
        out.write(intBE(compressed.length));
        out.write(compressed);
      }
    }
    return out.toByteArray();
  }

  static byte[] lz4Frame(byte[] plain) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    FramedLZ4CompressorOutputStream.Parameters params = new FramedLZ4CompressorOutputStream.Parameters(
        FramedLZ4CompressorOutputStream.BlockSize.K64, true, true, false);
    try (OutputStream out = new FramedLZ4CompressorOutputStream(bytes, params)) {
      out.write(plain);
    }
    return bytes.toByteArray();
  }

  static byte[] intBE(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(v).array();
  }

  static byte[] intLE(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] all = new byte[n];
    int pos = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, all, pos, p.length);
      pos += p.length;
    }
    return all;
  }
}
