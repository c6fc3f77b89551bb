package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.MiniHdfs;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.RecordingFileSystem;
import io.turboparquet.testing.RecordingFileSystem.Range;
import io.turboparquet.testing.RecordingFileSystem.Recorded;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan core reading from an in-process HDFS cluster: a lineitem-shaped file of several 256 KiB
 * blocks (smaller than some of its pages), each on two of three DataNodes, scanned in every read mode and with buffers smaller and
 * larger than its pages, gives parquet-java's digest; and the core reads it by ByteBuffer positional
 * reads ({@code io.RangeReads}), some of which cross block boundaries.
 */
class HdfsScanTest {
  private static final int BLOCK_SIZE = 256 * 1024;
  private static final List<String> PROJECTION = List.of("l_comment", "l_orderkey", "l_shipdate");

  @TempDir
  static java.nio.file.Path local;
  private static MiniHdfs hdfs;
  private static GeneratedFile lineitem;
  private static Path remote;

  @BeforeAll
  static void startCluster() throws IOException {
    hdfs = MiniHdfs.start("scan", 3, 2, BLOCK_SIZE);
    lineitem = TestFileGenerator.lineitemLike(local, 60_000, CompressionCodecName.SNAPPY);
    remote = hdfs.upload(lineitem.path(), new Path("/data/" + lineitem.path().getFileName()));
    long length = hdfs.fileSystem().getFileStatus(remote).getLen();
    assertEquals(java.nio.file.Files.size(lineitem.path()), length);
    assertTrue(hdfs.blocks(remote, 0, length).length >= 3, "the file should span several blocks");
  }

  @AfterAll
  static void stopCluster() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void everyReadModeGivesParquetJavasDigest() throws IOException {
    List<String> all = OracleDigest.digest(lineitem.path(), null);
    List<String> projected = OracleDigest.digest(lineitem.path(), PROJECTION);
    try (ScanHarness harness = new ScanHarness(hdfs.fileSystem())) {
      for (boolean async : new boolean[] {false, true}) {
        for (boolean buffered : new boolean[] {false, true}) {
          // Buffers larger than a page, not aligned to anything, and smaller than every page.
          for (int bufferSize : buffered ? new int[] {1 << 20, 100_003, 4096} : new int[] {1 << 20}) {
            ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(async)
                .coalescedReads(false).bufferedReads(buffered).bufferSize(bufferSize).batchSize(10_000).build();
            assertEquals(all, harness.digest(remote, null, options), options.toString());
          }
        }
        // Coalesced reads (the default): HDFS has no vectored reads, so positional reads per part.
        for (int part : new int[] {1 << 20, 64 * 1024}) {
          ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(async)
              .coalesceMaxSize(part).batchSize(10_000).build();
          assertEquals(all, harness.digest(remote, null, options), options.toString());
        }
        ScanOptions options = ScanOptions.builder().asyncPageReads(async).parallelDecode(async).build();
        assertEquals(projected, harness.digest(remote, PROJECTION, options), "projection, " + options);
      }
    }
  }

  @Test
  void bufferedScanReadsEachChunkByByteBufferPositionalReads() throws IOException {
    RecordingFileSystem recording = new RecordingFileSystem(hdfs.fileSystem());
    ScanOptions options = ScanOptions.builder().coalescedReads(false).bufferedReads(true).bufferSize(256 * 1024)
        .build();
    try (ScanHarness harness = new ScanHarness(recording)) {
      assertEquals(OracleDigest.digest(lineitem.path(), PROJECTION), harness.digest(remote, PROJECTION, options));
    }
    List<long[]> chunks = projectedChunkRanges(PROJECTION);
    List<Recorded> chunkStreams = recording.streams().stream().filter(Recorded::readsColumnChunks).toList();
    assertEquals(chunks.size(), chunkStreams.size(), "one stream per projected column chunk");
    boolean crossedBlock = false;
    for (Recorded s : chunkStreams) {
      assertTrue(s.wrapped().hasCapability(StreamCapabilities.PREADBYTEBUFFER), "HDFS streams take ByteBuffer preads");
      assertEquals(0, s.arrayPreads(), "byte-array positional reads");
      assertEquals(0, s.sequentialReads(), "sequential reads");
      assertEquals(0, s.vectoredReads(), "vectored reads");
      long[] range = coveredRange(s.byteBufferPreads());
      assertTrue(chunks.stream().anyMatch(c -> c[0] == range[0] && c[1] == range[1]),
          "the stream's reads cover exactly one projected chunk: " + range[0] + ".." + range[1]);
      for (Range r : s.byteBufferPreads()) {
        crossedBlock |= r.position() / BLOCK_SIZE != (r.end() - 1) / BLOCK_SIZE;
      }
    }
    assertTrue(crossedBlock, "some positional read should span two HDFS blocks");
  }

  @Test
  void directScanReadsPageBodiesByByteBufferPositionalReads() throws IOException {
    RecordingFileSystem recording = new RecordingFileSystem(hdfs.fileSystem());
    ScanOptions options = ScanOptions.builder().coalescedReads(false).bufferedReads(false).build();
    ScanMetrics metrics = new ScanMetrics();
    TrackingBufferSource buffers = new TrackingBufferSource();
    try (ScanHarness harness = new ScanHarness(recording)) {
      assertEquals(OracleDigest.digest(lineitem.path(), PROJECTION),
          io.turboparquet.cli.Digester.digest(harness.context(options, buffers, metrics), remote, PROJECTION));
    }
    assertEquals(0, buffers.outstanding(), "buffers leaked");
    List<Recorded> chunkStreams = recording.streams().stream().filter(Recorded::readsColumnChunks).toList();
    long preadBytes = chunkStreams.stream().mapToLong(Recorded::byteBufferBytes).sum();
    assertTrue(chunkStreams.stream().allMatch(s -> s.arrayPreads() == 0), "no byte-array positional reads");
    // Page headers come through the stream's sequential reads, bodies through ByteBuffer preads:
    // together they are the projected chunks.
    long chunkBytes = projectedChunkRanges(PROJECTION).stream().mapToLong(c -> c[1] - c[0]).sum();
    long sequentialBytes = chunkStreams.stream().mapToLong(s -> s.bytes() - s.byteBufferBytes()).sum();
    assertEquals(chunkBytes, preadBytes + sequentialBytes, "bytes read from the chunk streams");
    assertTrue(preadBytes > chunkBytes * 9 / 10, "page bodies, the bulk, by ByteBuffer preads: " + preadBytes);
  }

  /** [start, end) of each projected column chunk, over all row groups. */
  private static List<long[]> projectedChunkRanges(List<String> columns) throws IOException {
    FileMetadata meta;
    try (ScanHarness harness = new ScanHarness(hdfs.fileSystem())) {
      meta = ParquetFileScanner.readMetadata(harness.context(ScanOptions.defaults(), new TrackingBufferSource(),
          new ScanMetrics()), remote);
    }
    List<ColumnDescriptor> projection = meta.schema().project(columns);
    List<long[]> out = new ArrayList<>();
    for (RowGroupMeta rowGroup : meta.rowGroups()) {
      for (ColumnDescriptor c : projection) {
        ColumnChunkMeta chunk = rowGroup.column(c.index());
        out.add(new long[] {chunk.startOffset(), chunk.startOffset() + chunk.totalCompressedSize()});
      }
    }
    return out;
  }

  /** The range the reads cover, checked to be one contiguous range without gaps. */
  private static long[] coveredRange(List<Range> reads) {
    List<Range> sorted = reads.stream().sorted(Comparator.comparingLong(Range::position)).toList();
    assertTrue(!sorted.isEmpty(), "no ByteBuffer reads");
    long start = sorted.get(0).position();
    long end = start;
    for (Range r : sorted) {
      assertTrue(r.position() <= end, "gap before " + r);
      end = Math.max(end, r.end());
    }
    return new long[] {start, end};
  }
}
