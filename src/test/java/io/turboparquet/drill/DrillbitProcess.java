package io.turboparquet.drill;

import io.turboparquet.drill.demo.SoakDrillbit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One drillbit in a JVM of its own, started from a {@link DrillHome} as Drill's drillbit.sh starts
 * it ({@code org.apache.drill.exec.server.Drillbit} on the home's classpath, which reads conf/),
 * with its own free user, control and data ports and its own temporary directory, so that several
 * run on one machine. Its output goes to {@code work/NAME.log}.
 */
final class DrillbitProcess implements AutoCloseable {
  private final String name;
  private final int userPort;
  private final int controlPort;
  private final Path log;
  private final Process process;

  private DrillbitProcess(String name, int userPort, int controlPort, Path log, Process process) {
    this.name = name;
    this.userPort = userPort;
    this.controlPort = controlPort;
    this.log = log;
    this.process = process;
  }

  static DrillbitProcess start(DrillHome home, String name) throws IOException {
    int[] ports = freePorts(3);
    Path log = home.work().resolve(name + ".log");
    Path tmp = Files.createDirectories(home.work().resolve("state").resolve(name).resolve("tmp"));
    List<String> options = new ArrayList<>(List.of(
        // Small and quick to start: two drillbits and the test JVM share a small machine.
        "-Xms128m", "-Xmx768m", "-XX:MaxDirectMemorySize=768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        // Per node (here: per process) settings; the cluster's are in conf/drill-override.conf.
        "-Ddrill.exec.rpc.user.server.port=" + ports[0],
        "-Ddrill.exec.rpc.bit.server.port=" + ports[1],
        "-Ddrill.exec.rpc.bit.server.dataport=" + ports[2],
        // Drill cleans its local UDF directory (under drill.tmp-dir) at start: not shared between drillbits.
        "-Ddrill.tmp-dir=" + tmp));
    ProcessBuilder builder = new ProcessBuilder(home.javaCommand(options, "org.apache.drill.exec.server.Drillbit", List.of()))
        .directory(home.work().toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // As drillbit.sh sets it (the drillbit watches it for a graceful-shutdown file).
    builder.environment().put("DRILL_HOME", home.dir().toString());
    return new DrillbitProcess(name, ports[0], ports[1], log, builder.start());
  }

  String name() {
    return name;
  }

  int userPort() {
    return userPort;
  }

  int controlPort() {
    return controlPort;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the JVM at once (SIGKILL): no shutdown hook, no goodbye to ZooKeeper or the other drillbits. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError(name + " (pid " + process.pid() + ") still runs 30 s after SIGKILL");
    }
  }

  /** The last lines of its output, for failure messages. */
  String logTail() {
    try {
      return "--- " + name + " (" + log + "):\n" + DrillHome.tail(log, 60);
    } catch (IOException e) {
      return "--- " + name + ": " + e;
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }

  @Override
  public String toString() {
    return name + " (user port " + userPort + ", control port " + controlPort + ")";
  }

  private static int[] freePorts(int count) throws IOException {
    return SoakDrillbit.freePorts(count);
  }
}
