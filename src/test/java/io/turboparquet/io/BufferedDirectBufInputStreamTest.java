package io.turboparquet.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BufferedDirectBufInputStreamTest {
  private static final int FILE_SIZE = 300_000;
  @TempDir static java.nio.file.Path dir;
  private static byte[] content;
  private static Path path;
  private static FileSystem fs;
  /** Hadoop's checksummed local file system: no file descriptor, so reads take the staged path. */
  private static FileSystem checksummed;
  private final TrackingBufferSource buffers = new TrackingBufferSource();

  @BeforeAll
  static void writeFile() throws IOException {
    content = new byte[FILE_SIZE];
    new Random(42).nextBytes(content);
    java.nio.file.Path f = dir.resolve("data.bin");
    Files.write(f, content);
    path = new Path(f.toUri());
    fs = FileSystem.getLocal(new Configuration()).getRaw();
    checksummed = FileSystem.getLocal(new Configuration());
  }

  @AfterEach
  void noLeaks() {
    assertEquals(0, buffers.outstanding(), "buffers still held after the test");
  }

  private ChunkInput open(FSDataInputStream in, boolean buffered, long start, long length, int bufferSize) {
    return ChunkInput.open(in, "data.bin", FILE_SIZE, start, length, buffered, bufferSize, buffers);
  }

  /** Mixed reads (single bytes, arrays, getNext slices, skips) equal the file, for many buffer sizes. */
  @ParameterizedTest
  @ValueSource(ints = {1, 3, 16, 100, 4096, 65536, 1 << 20})
  void mixedReadsMatchTheFile(int bufferSize) throws IOException {
    for (int mode = 0; mode < 4; mode++) {
      boolean buffered = mode % 2 == 0;
      FileSystem fileSystem = mode < 2 ? fs : checksummed; // channel reads, then staged reads
      Random random = new Random(bufferSize);
      long start = 1234;
      long length = 200_000;
      List<ByteBuf> held = new ArrayList<>();
      List<long[]> heldAt = new ArrayList<>();
      try (FSDataInputStream in = fileSystem.open(path);
          ChunkInput input = open(in, buffered, start, length, bufferSize)) {
        long pos = start;
        while (pos < start + length - 5000) {
          assertEquals(pos, input.position());
          switch (random.nextInt(4)) {
            case 0 -> {
              assertEquals(content[(int) pos] & 0xff, input.read());
              pos++;
            }
            case 1 -> {
              byte[] b = new byte[random.nextInt(40)];
              int n = input.read(b, 0, b.length);
              for (int i = 0; i < n; i++) {
                assertEquals(content[(int) pos + i], b[i], "byte at " + (pos + i));
              }
              pos += Math.max(n, 0);
            }
            case 2 -> {
              int n = random.nextInt(3000);
              ByteBuf slice = input.getNext(n);
              assertEquals(n, slice.readableBytes());
              held.add(slice);
              heldAt.add(new long[] {pos, n});
              pos += n;
            }
            default -> {
              int n = random.nextInt(500);
              input.skip(n);
              pos += n;
            }
          }
        }
        // Slices handed out earlier still hold their bytes after later refills.
        for (int i = 0; i < held.size(); i++) {
          ByteBuf s = held.get(i);
          byte[] got = new byte[(int) heldAt.get(i)[1]];
          s.getBytes(s.readerIndex(), got);
          byte[] want = new byte[got.length];
          System.arraycopy(content, (int) heldAt.get(i)[0], want, 0, got.length);
          assertArrayEquals(want, got, "slice " + i + " at offset " + heldAt.get(i)[0]);
        }
      } finally {
        held.forEach(ByteBuf::release);
      }
    }
  }

  /**
   * The range bounds every read, buffered or not: the stream ends at the range's end, and bytes past
   * it are refused with the same words (the next column's bytes are never served as this one's).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void readsStopAtTheRangeEnd(boolean buffered) throws IOException {
    try (FSDataInputStream in = fs.open(path); ChunkInput input = open(in, buffered, 1000, 100, 64)) {
      EOFException e = assertThrows(EOFException.class, () -> input.getNext(5000));
      assertEquals("[data.bin] wanted 5000 bytes at offset 1000 but the column chunk ends at 1100", e.getMessage());
      input.skipNBytes(90);
      assertEquals(10, input.readNBytes(4096).length);
      assertEquals(-1, input.read());
      assertEquals(1100, input.position());
      org.junit.jupiter.api.Assertions.assertTrue(input.bytesRead() <= 100, "read past the range: "
          + input.bytesRead());
    }
  }

  /**
   * Page headers are peeked: marked, read ahead (here across buffer refills up to the range's end),
   * reset, and the same bytes come again.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void markReadAheadResetReadsTheSameBytesAgain(boolean buffered) throws IOException {
    try (FSDataInputStream in = fs.open(path); ChunkInput input = open(in, buffered, 1000, 3000, 64)) {
      input.skipNBytes(250);
      input.mark(4096);
      byte[] first = input.readNBytes(4096);
      input.reset();
      assertEquals(1250, input.position());
      byte[] again = input.readNBytes(4096);
      assertArrayEquals(java.util.Arrays.copyOfRange(content, 1250, 4000), first);
      assertArrayEquals(first, again);
    }
  }

  @Test
  void readingBeyondTheFileFailsNamingIt() throws IOException {
    for (boolean buffered : new boolean[] {true, false}) {
      try (FSDataInputStream in = fs.open(path);
          ChunkInput input = open(in, buffered, FILE_SIZE - 10, 10, 1 << 16)) {
        EOFException e = assertThrows(EOFException.class, () -> input.getNext(20));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("column chunk ends at " + FILE_SIZE),
            e.getMessage());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("data.bin"), e.getMessage());
      }
    }
  }

  @Test
  void readIntoByteBufStopsAtTheRangeEnd() throws IOException {
    ByteBuf dst = buffers.buffer(1000);
    try (FSDataInputStream in = fs.open(path); ChunkInput input = open(in, true, 10, 600, 128)) {
      assertEquals(600, input.read(dst));
      assertEquals(600, dst.writerIndex());
      assertEquals(-1, input.read(dst, 600, 100));
      for (int i = 0; i < 600; i++) {
        assertEquals(content[10 + i], dst.getByte(i), "byte " + i);
      }
    } finally {
      dst.release();
    }
  }

  @Test
  void countsReadsAndBytes() throws IOException {
    try (FSDataInputStream in = fs.open(path); ChunkInput input = open(in, true, 0, 100_000, 10_000)) {
      ByteBuf b = input.getNext(100_000);
      b.release();
      assertEquals(100_000, input.bytesRead());
      assertEquals(1, input.readCalls(), "a request larger than the buffer is one read");
    }
  }
}
