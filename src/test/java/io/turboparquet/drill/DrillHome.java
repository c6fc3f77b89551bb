package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.MavenClasspath;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Drill home as a Drill user installs Turbo Parquet in it: {@code jars/} = Drill 1.22's run-time
 * jars as Maven resolves them from drill-home/pom.xml (no test jar, nothing of ours),
 * {@code jars/3rdparty/} = only the plugin jar this build made (target/turbo-parquet-VERSION-drill.jar,
 * built at process-classes so it exists when tests run), {@code conf/} = our conf snippets as
 * shipped, followed by test settings (state under {@code work/state}, no Web server, warnings to
 * stderr). Java commands are built as Drill's scripts build them.
 */
final class DrillHome {
  static final Path PLUGIN_JAR = Paths.get(System.getProperty("turbo.parquet.plugin.jar",
      "target/turbo-parquet-drill.jar"));
  /** This test JVM's own directory (pom.xml's test.fork.dir): test classes run in parallel JVMs. */
  private static final Path FORK_DIR = Paths.get(System.getProperty("turbo.parquet.fork.dir", "target"));
  private static final Path HOME_POM = Paths.get(System.getProperty("turbo.parquet.drill.home.pom",
      "drill-home/pom.xml"));

  private final Path dir;
  private final List<Path> drillJars;

  private DrillHome(Path dir, List<Path> drillJars) {
    this.dir = dir;
    this.drillJars = drillJars;
  }

  /** A new home in {@code target/fork-N/NAME} (whatever was there is deleted). */
  static DrillHome assemble(String name) throws Exception {
    assertTrue(Files.isRegularFile(PLUGIN_JAR), "plugin jar " + PLUGIN_JAR + " (built at process-classes)");
    Path dir = FORK_DIR.resolve(name).toAbsolutePath();
    deleteRecursively(dir);
    Path jars = Files.createDirectories(dir.resolve("jars"));
    Files.createDirectories(dir.resolve("conf"));
    Files.createDirectories(dir.resolve("work"));
    DrillHome home = new DrillHome(dir, resolveDrillJars());
    for (Path jar : home.drillJars) {
      Files.createSymbolicLink(jars.resolve(jar.getFileName()), jar.toAbsolutePath());
    }
    Files.copy(PLUGIN_JAR, Files.createDirectories(jars.resolve("3rdparty")).resolve(PLUGIN_JAR.getFileName()));
    home.writeConf();
    return home;
  }

  Path dir() {
    return dir;
  }

  Path conf() {
    return dir.resolve("conf");
  }

  /** Files of the tests that use this home: data, logs, Drill's state. */
  Path work() {
    return dir.resolve("work");
  }

  /** Drill's jars as Maven resolved them (jars/ links to them). */
  List<Path> drillJars() {
    return drillJars;
  }

  /**
   * Installs the tools jar (target/tools/turbo-parquet-VERSION-tools.jar) in
   * jars/3rdparty/ too: for a test that needs the slow:// storage harness in its drillbits.
   */
  void installTools() throws IOException {
    Path tools = PLUGIN_JAR.resolveSibling("tools")
        .resolve(PLUGIN_JAR.getFileName().toString().replace("-drill.jar", "-tools.jar"));
    assertTrue(Files.isRegularFile(tools), "tools jar " + tools + " (built at process-classes)");
    Files.copy(tools, dir.resolve("jars").resolve("3rdparty").resolve(tools.getFileName()));
  }

  /** The plugin jar as installed in jars/3rdparty/. */
  Path installedPluginJar() {
    return dir.resolve("jars").resolve("3rdparty").resolve(PLUGIN_JAR.getFileName());
  }

  /** Appends HOCON to a file of conf/: later settings win over earlier ones, objects merge. */
  void appendConf(String file, String hocon) throws IOException {
    Files.writeString(conf().resolve(file), "\n" + hocon + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /**
   * {@code java OPTIONS -cp CLASSPATH MAIN ARGS} with the classpath of Drill's scripts (conf/ first,
   * then jars/*, jars/3rdparty/*) and the JDK 17 module openings Drill needs.
   */
  List<String> javaCommand(List<String> jvmOptions, String mainClass, List<String> args) {
    String javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Path jars = dir.resolve("jars");
    String classpath = String.join(File.pathSeparator, conf().toString(), jars + "/*", jars.resolve("3rdparty") + "/*");
    List<String> command = new ArrayList<>(List.of(javaBin));
    command.addAll(jvmOptions);
    command.add("-Dio.netty.tryReflectionSetAccessible=true");
    for (String module : List.of("java.lang", "java.nio", "sun.nio.ch", "java.util", "java.net")) {
      command.add("--add-opens=java.base/" + module + "=ALL-UNNAMED");
    }
    command.addAll(List.of("-cp", classpath, mainClass));
    command.addAll(args);
    return command;
  }

  /** conf/: our two snippets as shipped, then (so they win) state under work/ and no Web server. */
  private void writeConf() throws IOException {
    Files.copy(Paths.get("conf", "storage-plugins-override.conf"), conf().resolve("storage-plugins-override.conf"));
    Files.copy(Paths.get("conf", "drill-override.conf"), conf().resolve("drill-override.conf"));
    String state = work().resolve("state").toString();
    // Drill's default store, /tmp/drill, would be every drillbit's on the machine.
    appendConf("drill-override.conf", "# Test settings: local state under target/, no Web server.\n"
        + "drill.exec: {\n"
        + "  http.enabled: false,\n"
        + "  sys.store.provider.local.path: \"" + state + "/store\",\n"
        + "  udf.directory.root: \"" + state + "/udf\",\n"
        + "  compile.code_dir: \"" + state + "/codegen\",\n"
        + "  spill.directories: [\"" + state + "/spill\"],\n"
        + "  tmp.directories: [\"" + state + "/tmp\"]\n"
        + "}\n"
        + "drill.tmp-dir: \"" + state + "/tmp\"");
    Files.writeString(conf().resolve("logback.xml"), """
        <configuration>
          <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
            <target>System.err</target>
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <root level="WARN"><appender-ref ref="STDERR"/></root>
        </configuration>
        """);
  }

  /** Drill's jars: the run-time classpath of drill-home/pom.xml. */
  private static List<Path> resolveDrillJars() throws Exception {
    List<Path> jars = MavenClasspath.of(HOME_POM, "drill-home");
    assertTrue(jars.size() > 100, "Drill's run-time jars: " + jars.size());
    assertTrue(jars.stream().anyMatch(j -> j.getFileName().toString().startsWith("drill-java-exec-")), jars.toString());
    return jars;
  }

  /** The last lines of a log file, for failure messages. */
  static String tail(Path file, int lines) throws IOException {
    if (!Files.exists(file)) {
      return "(no " + file + ")";
    }
    List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted((x, y) -> y.getNameCount() - x.getNameCount()).toList()) {
        Files.delete(p);
      }
    }
  }
}
