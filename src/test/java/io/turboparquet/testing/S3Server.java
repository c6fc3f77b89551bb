package io.turboparquet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * A real S3 API server for tests: S3Proxy (its self-contained jar, copied into {@code target/s3proxy}
 * by the build) in a child JVM, over jclouds' filesystem backend in a directory under
 * {@code target/s3}, on a free loopback port, checking AWS signatures against one access key. A
 * child JVM keeps S3Proxy's Jetty and jclouds off the test JVM's classpath, where Drill's are.
 */
public final class S3Server implements AutoCloseable {
  public static final String BUCKET = "bucket";
  public static final String ACCESS_KEY = "turbo-access";
  public static final String SECRET_KEY = "turbo-secret";

  private final Process process;
  private final int port;
  private final Path log;

  private S3Server(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a server with one empty bucket, {@link #BUCKET}; waits until it accepts connections. */
  public static S3Server start() throws IOException {
    return start(List.of(BUCKET));
  }

  /** Starts a server with these empty buckets. */
  public static S3Server start(List<String> buckets) throws IOException {
    String jar = System.getProperty("turbo.parquet.s3proxy.jar", "target/s3proxy/s3proxy.jar");
    if (!Files.isRegularFile(Paths.get(jar))) {
      throw new IllegalStateException("no S3Proxy jar at " + jar + " (the build copies it at generate-test-resources)");
    }
    Path dir = Paths.get(System.getProperty("user.dir"), "target", "s3", UUID.randomUUID().toString());
    for (String bucket : buckets) {
      Files.createDirectories(dir.resolve("data").resolve(bucket)); // a bucket is a directory of the backend
    }
    int port = freePort();
    Path properties = dir.resolve("s3proxy.properties");
    Files.writeString(properties, String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + ACCESS_KEY,
        "s3proxy.credential=" + SECRET_KEY,
        "jclouds.provider=filesystem",
        "jclouds.filesystem.basedir=" + dir.resolve("data"),
        ""), StandardCharsets.UTF_8);
    Path log = dir.resolve("s3proxy.log");
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(List.of(java, "-Xmx512m", "-jar", jar, "--properties", properties.toString()))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    S3Server server = new S3Server(process, port, log);
    try {
      server.awaitListening(60_000);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void awaitListening(long millis) throws IOException {
    long deadline = System.currentTimeMillis() + millis;
    while (true) {
      if (!process.isAlive()) {
        throw new IOException("S3Proxy exited with " + process.exitValue() + ": " + Files.readString(log));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
        return;
      } catch (IOException notYet) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("S3Proxy did not listen on port " + port + " within " + millis + " ms: "
              + Files.readString(log));
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
    }
  }

  public int port() {
    return port;
  }

  /** {@code s3a://bucket/key}. */
  public static String uri(String key) {
    return "s3a://" + BUCKET + "/" + key;
  }

  /**
   * The S3A settings a client needs to reach this server through {@code port} (the server's own or a
   * proxy's in front of it): endpoint, path-style access, plain HTTP, the access key, and at most
   * {@code connections} pooled connections.
   */
  public static Map<String, String> s3aSettings(int port, int connections) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    m.put("fs.s3a.endpoint.region", "us-east-1");
    m.put("fs.s3a.path.style.access", "true");
    m.put("fs.s3a.connection.ssl.enabled", "false");
    m.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    m.put("fs.s3a.access.key", ACCESS_KEY);
    m.put("fs.s3a.secret.key", SECRET_KEY);
    m.put("fs.s3a.connection.maximum", Integer.toString(connections));
    return m;
  }

  /** A new S3A file system (not Hadoop's cached one) of {@code bucket} on this server's port. The caller closes it. */
  private FileSystem fileSystem(String bucket) {
    Configuration conf = new Configuration();
    s3aSettings(port, 16).forEach(conf::set);
    // After each upload S3A would bulk-delete the parent "directory" markers it might have made, which
    // takes the filesystem backend some ten seconds: keep them (S3A reads the same either way).
    conf.set("fs.s3a.directory.marker.retention", "keep");
    try {
      return FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), conf);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Uploads local files to the {@code s3a://} URIs they map to, through S3A. */
  public void upload(Map<Path, String> files) throws IOException {
    Map<String, FileSystem> byBucket = new LinkedHashMap<>();
    try {
      for (Map.Entry<Path, String> e : files.entrySet()) {
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(e.getValue());
        FileSystem fs = byBucket.computeIfAbsent(target.toUri().getAuthority(), this::fileSystem);
        fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(e.getKey().toUri()), target);
      }
    } finally {
      for (FileSystem fs : byBucket.values()) {
        fs.close();
      }
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
