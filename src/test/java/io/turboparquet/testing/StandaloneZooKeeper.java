package io.turboparquet.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A standalone ZooKeeper server in this JVM (the ZooKeeper of Drill's own dependencies), on a free
 * port of the loopback interface, with its snapshots and log in a directory of the caller's.
 */
public final class StandaloneZooKeeper implements AutoCloseable {
  /** ZooKeeper's own default tick. */
  private static final int TICK_MILLIS = 2000;
  /**
   * The longest session the server grants. Drill's clients (Curator) ask for 60 s, of which ZooKeeper
   * grants at most 20 ticks (40 s) by default; a drillbit that dies leaves the cluster only when its
   * session expires, so a test that kills one would wait that long.
   */
  private static final int MAX_SESSION_MILLIS = 6000;

  private final ZooKeeperServer server;
  private final ServerCnxnFactory connections;

  private StandaloneZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections) {
    this.server = server;
    this.connections = connections;
  }

  public static StandaloneZooKeeper start(Path dir) throws IOException, InterruptedException {
    Path data = Files.createDirectories(dir);
    ZooKeeperServer server = new ZooKeeperServer(data.toFile(), data.toFile(), TICK_MILLIS);
    server.setMaxSessionTimeout(MAX_SESSION_MILLIS);
    ServerCnxnFactory connections = ServerCnxnFactory.createFactory(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
    connections.startup(server);
    return new StandaloneZooKeeper(server, connections);
  }

  /** host:port, as in Drill's drill.exec.zk.connect. */
  public String connectString() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + connections.getLocalPort();
  }

  @Override
  public void close() {
    connections.shutdown();
    server.shutdown();
  }
}
