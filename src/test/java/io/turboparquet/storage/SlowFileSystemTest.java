package io.turboparquet.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.turboparquet.io.RangeReads;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness counts exactly and throttles at least as much as configured (only lower bounds on time). */
class SlowFileSystemTest {
  private static final int SIZE = 300_000;
  @TempDir static java.nio.file.Path dir;
  private static java.nio.file.Path file;
  private static byte[] content;

  @BeforeAll
  static void writeFile() throws IOException {
    content = new byte[SIZE];
    new Random(3).nextBytes(content);
    file = dir.resolve("data.bin");
    Files.write(file, content);
  }

  private static SlowFileSystem slow(String... keyValues) throws IOException {
    Configuration conf = new Configuration();
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    SlowFileSystem fs = new SlowFileSystem();
    fs.initialize(URI.create("slow:///"), conf);
    return fs;
  }

  private static Path slowPath() {
    return new Path("slow://" + file.toAbsolutePath());
  }

  @Test
  void theSchemeIsRegisteredAndConfiguredThroughHadoopConfiguration() throws IOException {
    Configuration conf = new Configuration();
    conf.set(SlowFileSystem.LATENCY, "1ms");
    try (FileSystem fs = FileSystem.newInstance(URI.create("slow:///"), conf)) {
      assertTrue(fs instanceof SlowFileSystem, fs.getClass().getName());
      SlowFileSystem slow = (SlowFileSystem) fs;
      assertEquals(SIZE, fs.getFileStatus(slowPath()).getLen());
      assertEquals(slowPath(), fs.getFileStatus(slowPath()).getPath());
      assertEquals(0, slow.counters().calls());
    }
  }

  @Test
  void everyCallAndByteIsCountedPerPathAndInTotal() throws IOException {
    try (SlowFileSystem fs = slow()) {
      try (FSDataInputStream in = fs.open(slowPath())) {
        byte[] a = new byte[1000];
        in.readFully(5000, a, 0, a.length);
        assertArrayEquals(Arrays.copyOfRange(content, 5000, 6000), a);
        ByteBuf direct = Unpooled.directBuffer(70_000);
        try {
          // The reader the scan uses: ByteBuffer preads, not a FileChannel around the harness.
          RangeReads.forStream(in).readFully(100_000, direct, 0, 70_000);
          byte[] b = new byte[70_000];
          direct.getBytes(0, b);
          assertArrayEquals(Arrays.copyOfRange(content, 100_000, 170_000), b);
        } finally {
          direct.release();
        }
        // Sequential reads go through a 64 KiB buffer: one call per refill.
        in.seek(0);
        byte[] all = new byte[SIZE];
        int done = 0;
        while (done < SIZE) {
          int n = in.read(all, done, Math.min(4096, SIZE - done));
          assertTrue(n > 0);
          done += n;
        }
        assertArrayEquals(content, all);
        assertEquals(-1, in.read());
      }
      StorageCounters c = fs.counters();
      int refills = (SIZE + 65535) / 65536;
      assertEquals(2 + refills + 1, c.calls()); // the final read() finds the end: one more call
      assertEquals(1000 + 70_000 + SIZE, c.bytes());
      assertEquals(1, c.opens());
      StorageCounters.PathCounters p = c.forPath(slowPath().toString());
      assertEquals(c.calls(), p.calls());
      assertEquals(c.bytes(), p.bytes());
      assertEquals(List.of(new StorageCounters.Read(5000, 1000), new StorageCounters.Read(100_000, 70_000)),
          p.reads().subList(0, 2));
      assertEquals(0, c.forPath("slow:///elsewhere").calls());
    }
  }

  @Test
  void latencyIsPaidPerCall() throws IOException {
    try (SlowFileSystem fs = slow(SlowFileSystem.LATENCY, "20ms"); FSDataInputStream in = fs.open(slowPath())) {
      long t0 = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        in.readFully(i * 10L, new byte[10]);
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms >= 100, "5 calls at 20 ms took " + ms + " ms");
      assertEquals(5, fs.counters().calls());
    }
  }

  @Test
  void streamBandwidthIsCapped() throws IOException {
    try (SlowFileSystem fs = slow(SlowFileSystem.STREAM_BANDWIDTH, "1m"); FSDataInputStream in = fs.open(slowPath())) {
      long t0 = System.nanoTime();
      in.readFully(0, new byte[131_072]);
      in.readFully(131_072, new byte[131_072]);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms >= 250, "256 KiB at 1 MiB/s took " + ms + " ms");
    }
  }

  @Test
  void totalBandwidthIsSharedByAllStreams() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (SlowFileSystem fs = slow(SlowFileSystem.STREAM_BANDWIDTH, "100m", SlowFileSystem.TOTAL_BANDWIDTH, "1m")) {
      long t0 = System.nanoTime();
      Future<?> a = pool.submit(() -> readOnItsOwnStream(fs, 0));
      Future<?> b = pool.submit(() -> readOnItsOwnStream(fs, 131_072));
      a.get();
      b.get();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms >= 250, "2 x 128 KiB on two streams sharing 1 MiB/s took " + ms + " ms");
      assertEquals(2, fs.counters().opens());
      assertEquals(2, fs.counters().calls());
    } finally {
      pool.shutdownNow();
    }
  }

  private static Void readOnItsOwnStream(SlowFileSystem fs, long offset) throws IOException {
    try (FSDataInputStream in = fs.open(slowPath())) {
      in.readFully(offset, new byte[131_072]);
    }
    return null;
  }
}
