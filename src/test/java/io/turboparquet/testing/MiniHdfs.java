package io.turboparquet.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;

/**
 * An in-process HDFS cluster (one NameNode, a few DataNodes on ephemeral ports, data under
 * {@code target/hdfs/}) with a small block size, so that a test file of a megabyte or two spans
 * several blocks, each replicated on several DataNodes.
 */
public final class MiniHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;
  private final DistributedFileSystem fs;
  private final List<DataNodeProperties> stopped = new ArrayList<>();

  private MiniHdfs(MiniDFSCluster cluster) throws IOException {
    this.cluster = cluster;
    this.fs = cluster.getFileSystem();
  }

  /**
   * Starts a cluster of {@code dataNodes} DataNodes whose files have blocks of {@code blockSize}
   * bytes (a multiple of 512, the checksum chunk) and {@code replication} replicas.
   */
  public static MiniHdfs start(String name, int dataNodes, int replication, long blockSize) throws IOException {
    File baseDir = new File(System.getProperty("user.dir"), "target/hdfs/" + name + "-" + UUID.randomUUID());
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, blockSize);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, baseDir)
        .numDataNodes(dataNodes)
        .build();
    try {
      cluster.waitActive();
      return new MiniHdfs(cluster);
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
  }

  public DistributedFileSystem fileSystem() {
    return fs;
  }

  /** The NameNode's {@code hdfs://host:port} URI. */
  public URI uri() {
    return cluster.getURI();
  }

  /** Copies a local file to {@code target} on HDFS with the cluster's block size and replication. */
  public Path upload(java.nio.file.Path local, Path target) throws IOException {
    try (FSDataOutputStream out = fs.create(target, true)) {
      java.nio.file.Files.copy(local, out);
    }
    return fs.makeQualified(target);
  }

  /** Where the NameNode says the blocks of {@code path} overlapping {@code [start, start + length)} are. */
  public BlockLocation[] blocks(Path path, long start, long length) throws IOException {
    return fs.getFileBlockLocations(path, start, length);
  }

  /** Stops the DataNode with transfer address {@code name} ("ip:port"); fails if there is none. */
  public void stopDataNode(String name) {
    DataNodeProperties stopped = cluster.stopDataNode(name);
    if (stopped == null) {
      throw new IllegalArgumentException("no running DataNode " + name);
    }
    this.stopped.add(stopped);
  }

  /** Restarts the DataNodes stopped so far, on their old ports, and waits until they have registered. */
  public void restartStoppedDataNodes() throws IOException {
    for (DataNodeProperties dn : stopped) {
      cluster.restartDataNode(dn, true);
    }
    stopped.clear();
    cluster.waitActive();
  }

  @Override
  public void close() {
    cluster.shutdown(true); // also deletes the data directory
  }
}
