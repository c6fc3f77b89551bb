package io.turboparquet.testing;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 relay on a loopback port in front of a test server, counting what the server serves:
 * object GETs ({@code GET /bucket/key}, not listings) and their body bytes, every request, and the
 * most requests in flight at once (from the request's head arriving to its response's last byte
 * leaving). Each request is held back {@code latencyMillis} before it is passed on, as a remote
 * store's round trip would, so that concurrent requests overlap measurably. Bytes pass unchanged
 * (the Host header included, so signatures still verify). One thread per client connection, whose
 * requests follow one another (HTTP clients of object stores do not pipeline). Request bodies are
 * relayed by length or chunks; {@code Expect: 100-continue} (uploads) is not supported. A client
 * may close a connection in the middle of a response (S3A aborts a GET whose rest it will not
 * read): that GET counts, with the bytes it got, and the connection ends.
 */
public final class CountingHttpProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final long latencyMillis;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "counting-proxy");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong objectGets = new AtomicLong();
  private final AtomicLong objectGetBytes = new AtomicLong();
  private final AtomicLong aborted = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile IOException firstFailure;

  /**
   * What the proxy counted since it started or was last reset: requests of any kind, object GETs,
   * the body bytes they delivered, those the client cut short, and the most requests in flight at once.
   */
  public record Counts(long requests, long objectGets, long objectGetBytes, long abortedGets, int maxInFlight) {}

  /** The client went away while we wrote to it. */
  private static final class ClientGone extends IOException {
    ClientGone(IOException cause) {
      super(cause);
    }
  }

  /** What the client sends: its failures (a reset connection) tell the client went away. */
  private static final class FromClient extends java.io.FilterInputStream {
    FromClient(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        throw new ClientGone(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException e) {
        throw new ClientGone(e);
      }
    }
  }

  /** The client's side of a connection: counts what it is sent and tells its failures apart. */
  private static final class ToClient extends OutputStream {
    private final OutputStream out;
    long written;

    ToClient(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        throw new ClientGone(e);
      }
      written += len;
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        throw new ClientGone(e);
      }
    }
  }

  public CountingHttpProxy(int targetPort, long latencyMillis) throws IOException {
    this.targetPort = targetPort;
    this.latencyMillis = latencyMillis;
    this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  public int port() {
    return server.getLocalPort();
  }

  public Counts counts() {
    if (failures.get() > 0) {
      throw new IllegalStateException(failures.get() + " exchanges failed in the proxy", firstFailure);
    }
    return new Counts(requests.get(), objectGets.get(), objectGetBytes.get(), aborted.get(), maxInFlight.get());
  }

  /** Starts counting afresh (requests in flight stay in flight). */
  public void reset() {
    requests.set(0);
    objectGets.set(0);
    objectGetBytes.set(0);
    aborted.set(0);
    maxInFlight.set(inFlight.get());
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> relay(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void relay(Socket client) {
    try (client; Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort)) {
      InputStream fromClient = new FromClient(new BufferedInputStream(client.getInputStream()));
      ToClient toClient = new ToClient(new BufferedOutputStream(client.getOutputStream()));
      InputStream fromTarget = new BufferedInputStream(target.getInputStream());
      OutputStream toTarget = new BufferedOutputStream(target.getOutputStream());
      boolean reused = false;
      while (true) {
        Head request = Head.read(fromClient);
        if (request == null) {
          return; // the client closed its connection
        }
        if ("100-continue".equalsIgnoreCase(request.header("expect"))) {
          throw new IOException("Expect: 100-continue is not supported by this proxy");
        }
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        requests.incrementAndGet();
        boolean close;
        boolean objectGet = request.isObjectGet();
        long bodyStart = -1;
        try {
          Thread.sleep(latencyMillis);
          toTarget.write(request.bytes);
          copyBody(request, fromClient, toTarget, false);
          toTarget.flush();
          Head response = Head.read(fromTarget);
          if (response == null && reused) {
            // The server closed this kept-alive connection as idle while the request was on its way,
            // as servers may: drop the client's connection unanswered, as the server did, and the
            // client sends the request again on a new one. Not served, so not counted.
            requests.decrementAndGet();
            return;
          }
          if (response == null) {
            throw new EOFException("the server closed the connection before answering " + request.firstLine);
          }
          if (objectGet) {
            objectGets.incrementAndGet();
          }
          toClient.write(response.bytes);
          bodyStart = toClient.written;
          boolean bodiless = request.method().equals("HEAD") || response.status() / 100 == 1
              || response.status() == 204 || response.status() == 304;
          if (!bodiless) {
            copyBody(response, fromTarget, toClient, true);
          }
          toClient.flush();
          close = "close".equalsIgnoreCase(request.header("connection"))
              || "close".equalsIgnoreCase(response.header("connection"))
              || (!bodiless && response.header("content-length") == null && !response.chunked());
        } catch (ClientGone e) {
          if (objectGet) {
            aborted.incrementAndGet();
          }
          throw e;
        } finally {
          if (objectGet && bodyStart >= 0) {
            objectGetBytes.addAndGet(toClient.written - bodyStart);
          }
          inFlight.decrementAndGet();
        }
        if (close) {
          return;
        }
        reused = true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ClientGone e) {
      // the client closed or reset its connection (a response it cut short is counted above)
    } catch (IOException e) {
      if (!server.isClosed() && failures.incrementAndGet() == 1) {
        firstFailure = e;
      }
    }
  }

  /** Copies a message body by its length, its chunks, or (a response without either) to the end of the stream. */
  private static void copyBody(Head head, InputStream in, OutputStream out, boolean untilEnd) throws IOException {
    if (head.chunked()) {
      while (true) {
        String sizeLine = line(in);
        out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
        int semicolon = sizeLine.indexOf(';');
        long size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
        if (size == 0) {
          String trailer;
          do {
            trailer = line(in);
            out.write((trailer + "\r\n").getBytes(StandardCharsets.US_ASCII));
          } while (!trailer.isEmpty());
          return;
        }
        copy(in, out, size + 2); // the chunk and its CRLF
      }
    }
    String length = head.header("content-length");
    if (length != null) {
      copy(in, out, Long.parseLong(length.trim()));
    } else if (untilEnd) {
      in.transferTo(out);
    }
  }

  private static void copy(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long left = n;
    while (left > 0) {
      int got = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (got < 0) {
        throw new EOFException(left + " bytes of a body missing");
      }
      out.write(buffer, 0, got);
      left -= got;
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new EOFException("stream ended in a line");
      }
      b.write(c);
    }
    String s = b.toString(StandardCharsets.US_ASCII);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  /** A request's or response's first line and headers, with their bytes as they came. */
  private record Head(byte[] bytes, String firstLine, Map<String, String> headers) {
    /** The next head on {@code in}, or null if the stream ends before one starts. */
    static Head read(InputStream in) throws IOException {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      int c = in.read();
      if (c < 0) {
        return null;
      }
      int last4 = 0; // the last four bytes read, to find the blank line "\r\n\r\n" that ends the head
      while (true) {
        raw.write(c);
        last4 = (last4 << 8) | c;
        if (last4 == 0x0D0A0D0A) {
          break;
        }
        c = in.read();
        if (c < 0) {
          throw new EOFException("stream ended in a message head");
        }
      }
      byte[] bytes = raw.toByteArray();
      String[] lines = new String(bytes, StandardCharsets.ISO_8859_1).split("\r\n");
      Map<String, String> headers = new HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
      }
      return new Head(bytes, lines[0], headers);
    }

    String header(String name) {
      return headers.get(name);
    }

    boolean chunked() {
      String te = header("transfer-encoding");
      return te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
    }

    String method() {
      return firstLine.substring(0, firstLine.indexOf(' '));
    }

    int status() {
      String[] parts = firstLine.split(" ");
      return Integer.parseInt(parts[1]);
    }

    /** {@code GET /bucket/key...}: a read of an object, not a listing of a bucket. */
    boolean isObjectGet() {
      String[] parts = firstLine.split(" ");
      if (!parts[0].equals("GET")) {
        return false;
      }
      String path = parts[1];
      int query = path.indexOf('?');
      path = query < 0 ? path : path.substring(0, query);
      int slash = path.indexOf('/', 1);
      return slash > 0 && slash < path.length() - 1;
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
