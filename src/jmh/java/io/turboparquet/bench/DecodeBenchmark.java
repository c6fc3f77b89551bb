package io.turboparquet.bench;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.Decoders;
import io.turboparquet.decode.Dictionary;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.decode.ValuesDecoder;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.io.TrackingBufferSource;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoders on one page of TPC-H-lineitem-like data, encoded by parquet-java's writers: the cost
 * per value of each hot loop, without the noise of whole-file scans.
 *
 * <pre>
 * mvn -q -Pjmh -DskipTests package
 * java -cp target/classes:$(cat target/classpath.txt) org.openjdk.jmh.Main DecodeBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true"})
public class DecodeBenchmark {
  static final int VALUES = 100_000;

  /**
   * Which page: dictionary strings like l_shipmode (up to 7 bytes) and like l_shipinstruct (4-17
   * bytes), dictionary longs, PLAIN comment strings, PLAIN longs.
   */
  @Param({"DICT_STRINGS", "DICT_LONGER_STRINGS", "DICT_LONGS", "PLAIN_STRINGS", "PLAIN_LONGS"})
  public String shape;

  private TrackingBufferSource buffers;
  private ByteBuf page;
  private Dictionary dictionary;
  private ValueSink sink;
  private ValuesDecoder decoder;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    buffers = new TrackingBufferSource();
    Random random = new Random(42);
    switch (shape) {
      case "DICT_STRINGS", "DICT_LONGER_STRINGS" -> {
        String[] words = shape.equals("DICT_STRINGS") ? new String[] {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}
            : new String[] {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
        dictionary = dictionaryOf(words);
        page = indices(random, words.length);
        decoder = Decoders.create(Encoding.RLE_DICTIONARY, PhysicalType.BYTE_ARRAY, 0, dictionary);
        sink = new ValueSink(buffers, ValueSink.VARIABLE);
      }
      case "DICT_LONGS" -> {
        PlainValuesWriter w = writer();
        for (int i = 0; i < 40_000; i++) {
          w.writeLong(random.nextLong());
        }
        ByteBuf d = copy(w.getBytes());
        dictionary = Dictionary.read(d, 0, d.capacity(), 40_000, PhysicalType.INT64, 0, buffers);
        d.release();
        page = indices(random, 40_000);
        decoder = Decoders.create(Encoding.RLE_DICTIONARY, PhysicalType.INT64, 0, dictionary);
        sink = new ValueSink(buffers, 8);
      }
      case "PLAIN_STRINGS" -> {
        PlainValuesWriter w = writer();
        for (int i = 0; i < VALUES; i++) {
          byte[] b = new byte[10 + random.nextInt(34)];
          for (int j = 0; j < b.length; j++) {
            b[j] = (byte) ('a' + random.nextInt(26));
          }
          w.writeBytes(Binary.fromConstantByteArray(b));
        }
        page = copy(w.getBytes());
        decoder = Decoders.create(Encoding.PLAIN, PhysicalType.BYTE_ARRAY, 0, null);
        sink = new ValueSink(buffers, ValueSink.VARIABLE);
      }
      case "PLAIN_LONGS" -> {
        PlainValuesWriter w = writer();
        for (int i = 0; i < VALUES; i++) {
          w.writeLong(random.nextLong());
        }
        page = copy(w.getBytes());
        decoder = Decoders.create(Encoding.PLAIN, PhysicalType.INT64, 0, null);
        sink = new ValueSink(buffers, 8);
      }
      default -> throw new IllegalArgumentException(shape);
    }
  }

  @Benchmark
  public int decodePage() {
    sink.reset();
    decoder.init(page, 0, page.capacity(), VALUES);
    decoder.read(sink, VALUES);
    return sink.position();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    sink.close();
    page.release();
    if (dictionary != null) {
      dictionary.close();
    }
    if (buffers.outstanding() != 0) {
      throw new IllegalStateException("leaked " + buffers.outstanding() + " buffers");
    }
  }

  private static PlainValuesWriter writer() {
    return new PlainValuesWriter(1 << 20, 64 << 20, HeapByteBufferAllocator.getInstance());
  }

  private Dictionary dictionaryOf(String[] words) throws IOException {
    PlainValuesWriter w = writer();
    for (String s : words) {
      w.writeBytes(Binary.fromString(s));
    }
    ByteBuf d = copy(w.getBytes());
    try {
      return Dictionary.read(d, 0, d.capacity(), words.length, PhysicalType.BYTE_ARRAY, 0, buffers);
    } finally {
      d.release();
    }
  }

  /** A dictionary data page body: bit width, then hybrid-encoded random indices. */
  private ByteBuf indices(Random random, int size) throws IOException {
    int bitWidth = 32 - Integer.numberOfLeadingZeros(size - 1);
    RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 1 << 16, 64 << 20,
        HeapByteBufferAllocator.getInstance());
    for (int i = 0; i < VALUES; i++) {
      encoder.writeInt(random.nextInt(size));
    }
    byte[] body = encoder.toBytes().toByteArray();
    ByteBuf out = buffers.buffer(body.length + 1);
    out.setByte(0, bitWidth);
    out.setBytes(1, body);
    return out;
  }

  private ByteBuf copy(BytesInput bytes) throws IOException {
    byte[] b = bytes.toByteArray();
    ByteBuf out = buffers.buffer(b.length);
    out.setBytes(0, b);
    return out;
  }
}
