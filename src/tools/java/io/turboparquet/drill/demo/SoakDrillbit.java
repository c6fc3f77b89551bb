package io.turboparquet.drill.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.drill.common.config.DrillConfig;
import org.apache.drill.exec.server.Drillbit;
import org.apache.drill.exec.server.RemoteServiceSet;

/**
 * A drillbit in a JVM of its own for the soak: a local coordinator (no ZooKeeper; clients connect
 * straight to its user port), configured by the {@code drill-override.conf} on its classpath, with
 * a direct-memory cap and remote JMX on a loopback port so that the driver reads Drill's root
 * allocator gauges ({@code drill.allocator.root.used}, {@code .peak}). {@link #main} runs in that
 * JVM; {@link #start} launches it.
 */
public final class SoakDrillbit implements AutoCloseable {
  static final String READY = "soak drillbit ready on user port ";

  private final Process process;
  private final Path log;
  final int userPort;
  final int jmxPort;

  private SoakDrillbit(Process process, Path log, int userPort, int jmxPort) {
    this.process = process;
    this.log = log;
    this.userPort = userPort;
    this.jmxPort = jmxPort;
  }

  public static void main(String[] args) throws Exception {
    Drillbit drillbit = new Drillbit(DrillConfig.create(), RemoteServiceSet.getLocalServiceSet());
    drillbit.run();
    System.out.println(READY + drillbit.getUserPort());
    System.out.flush();
    // Ends with its parent: stdin is the parent's pipe, at EOF once the parent exits or closes it.
    while (System.in.read() >= 0) {
      // nothing to read; only the end matters
    }
    drillbit.close();
    System.exit(0);
  }

  /**
   * Starts a drillbit: {@code command} turns JVM options and a main class into the java command
   * line (the caller's classpath: a Drill home, or bin/drill's). Returns once it listens on its port.
   */
  public static SoakDrillbit start(BiFunction<List<String>, String, List<String>> command, int directMiB, Path log)
      throws IOException, InterruptedException {
    int[] ports = freePorts(4);
    List<String> options = new ArrayList<>(List.of(
        "-Xms256m", "-Xmx1g", "-XX:MaxDirectMemorySize=" + directMiB + "m",
        "-Ddrill.exec.rpc.user.server.port=" + ports[0],
        "-Ddrill.exec.rpc.bit.server.port=" + ports[1],
        "-Ddrill.exec.rpc.bit.server.dataport=" + ports[2],
        "-Ddrill.exec.port_hunt=false",
        "-Ddrill.exec.http.enabled=false",
        "-Ddrill.metrics.jmx.enabled=true",
        "-Dcom.sun.management.jmxremote.port=" + ports[3],
        "-Dcom.sun.management.jmxremote.rmi.port=" + ports[3],
        "-Dcom.sun.management.jmxremote.host=127.0.0.1",
        "-Djava.rmi.server.hostname=127.0.0.1",
        "-Dcom.sun.management.jmxremote.authenticate=false",
        "-Dcom.sun.management.jmxremote.ssl=false"));
    Files.createDirectories(log.getParent());
    Process process = new ProcessBuilder(command.apply(options, SoakDrillbit.class.getName()))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    SoakDrillbit drillbit = new SoakDrillbit(process, log, ports[0], ports[3]);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!Files.readString(log, StandardCharsets.UTF_8).contains(READY)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        drillbit.close();
        throw new IOException("the soak drillbit did not start (alive " + process.isAlive() + ")\n" + drillbit.logTail());
      }
      Thread.sleep(200); // polls its log for the line it prints once it listens
    }
    return drillbit;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "--- " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "--- " + log + ": " + e;
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Distinct ports that were free a moment ago (all held open together, then released). */
  public static int[] freePorts(int count) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0);
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
  }
}
