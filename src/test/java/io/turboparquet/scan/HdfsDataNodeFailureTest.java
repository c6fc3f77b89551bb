package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.MiniHdfs;
import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.RecordingFileSystem;
import io.turboparquet.testing.RecordingFileSystem.Recorded;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DataNode dies in the middle of a scan: the scan still completes with parquet-java's digest.
 *
 * <p>Deterministic by construction: a read hook waits for the scan's first positional read in the
 * second half of the file, looks up, in that stream's own block list, the DataNode the HDFS client
 * will try first for the block being read (it tries a block's locations in order), and stops that
 * DataNode before the read goes on. So the read itself meets the dead DataNode, and the client must
 * fail over to another replica (every block has two, on three DataNodes).
 */
class HdfsDataNodeFailureTest {
  private static final int BLOCK_SIZE = 256 * 1024;

  @TempDir
  static java.nio.file.Path local;
  private static MiniHdfs hdfs;
  private static GeneratedFile lineitem;
  private static Path remote;
  private static long length;
  private static List<String> expected;

  @BeforeAll
  static void startCluster() throws IOException {
    hdfs = MiniHdfs.start("datanode-failure", 3, 2, BLOCK_SIZE);
    lineitem = TestFileGenerator.lineitemLike(local, 60_000, CompressionCodecName.SNAPPY);
    remote = hdfs.upload(lineitem.path(), new Path("/data/" + lineitem.path().getFileName()));
    length = hdfs.fileSystem().getFileStatus(remote).getLen();
    assertTrue(hdfs.blocks(remote, 0, length).length >= 3, "the file should span several blocks");
    expected = OracleDigest.digest(lineitem.path(), null);
  }

  @AfterEach
  void restartDataNodes() throws IOException {
    hdfs.restartStoppedDataNodes();
  }

  @AfterAll
  static void stopCluster() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void syncScanSurvivesTheDataNodeItReadsFromStopping() throws IOException {
    scanWhileStoppingADataNode(ScanOptions.builder().asyncPageReads(false).parallelDecode(false)
        .bufferSize(64 * 1024).batchSize(5_000).build());
  }

  @Test
  void asyncScanSurvivesTheDataNodeItReadsFromStopping() throws IOException {
    scanWhileStoppingADataNode(ScanOptions.builder().asyncPageReads(true).parallelDecode(true)
        .bufferSize(64 * 1024).batchSize(5_000).build());
  }

  private static void scanWhileStoppingADataNode(ScanOptions options) throws IOException {
    RecordingFileSystem recording = new RecordingFileSystem(hdfs.fileSystem());
    AtomicReference<String> stopped = new AtomicReference<>();
    AtomicReference<Recorded> failedOver = new AtomicReference<>();
    AtomicLong bytesAtStop = new AtomicLong(-1);
    recording.setReadHook((stream, position, n) -> {
      synchronized (stopped) {
        if (stopped.get() == null && stream.readsColumnChunks() && position >= length / 2) {
          String first = firstLocation(stream, position);
          bytesAtStop.set(recording.bytesRead());
          hdfs.stopDataNode(first);
          stopped.set(first);
          failedOver.set(stream);
        }
      }
    });
    try (ScanHarness harness = new ScanHarness(recording)) {
      assertEquals(expected, harness.digest(remote, null, options), options.toString());
    }
    assertNotNull(stopped.get(), "the scan never read the second half of the file");
    assertTrue(recording.bytesRead() - bytesAtStop.get() >= length / 4,
        "most of the scan should run after the DataNode stopped: " + bytesAtStop.get() + " of "
            + recording.bytesRead() + " bytes before");
    assertTrue(deadNodes(failedOver.get()).contains(stopped.get()),
        "the client should have found " + stopped.get() + " dead and read another replica");
  }

  /** The DataNode the HDFS client tries first for the block at {@code position} of this stream. */
  private static String firstLocation(Recorded stream, long position) throws IOException {
    for (LocatedBlock block : ((HdfsDataInputStream) stream.wrapped()).getAllBlocks()) {
      if (block.getStartOffset() <= position && position < block.getStartOffset() + block.getBlockSize()) {
        return block.getLocations()[0].getXferAddr();
      }
    }
    throw new AssertionError("no block at " + position);
  }

  /** Transfer addresses of the DataNodes the stream's client found dead. */
  private static List<String> deadNodes(Recorded stream) {
    DFSInputStream in = (DFSInputStream) ((HdfsDataInputStream) stream.wrapped()).getWrappedStream();
    return hdfs.fileSystem().getClient().getDeadNodes(in).keySet().stream().map(DatanodeInfo::getXferAddr).toList();
  }
}
