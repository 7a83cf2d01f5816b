package io.trainyard.gateway.testing.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of one HTTP server (a fake API server, a cloud stub) whose
 * behaviour is switched while it runs, to play a backend that fails the ways real ones do:
 *
 * <ul>
 *   <li>{@link Mode#PASS}: bytes flow both ways unchanged;
 *   <li>{@link Mode#ERROR}: every request is answered {@code 503} (a 5xx from the server or a load
 *       balancer in front of it);
 *   <li>{@link Mode#HANG}: connections are accepted and requests read, never answered (a timeout);
 *   <li>{@link Mode#RESET}: connections are reset (TCP RST) as soon as they are accepted;
 *   <li>{@link Mode#CAPACITY}: every request is answered with the {@link #capacityAnswer capacity
 *       refusal} the backend's protocol uses (Kubernetes: 403 "exceeded quota"; SageMaker: 400
 *       ResourceLimitExceeded).
 * </ul>
 *
 * Switching the mode cuts every open connection, as a dying server does, so that pooled keep-alive
 * connections and watches meet the new behaviour at once. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {
  /** How the proxy treats connections from now on. */
  public enum Mode {
    PASS,
    ERROR,
    HANG,
    RESET,
    CAPACITY
  }

  /** An HTTP answer in a protocol's own terms. */
  public record Answer(int status, String reason, String contentType, String body) {
    byte[] bytes() {
      var payload = body.getBytes(StandardCharsets.UTF_8);
      var head =
          "HTTP/1.1 "
              + status
              + " "
              + reason
              + "\r\nContent-Type: "
              + contentType
              + "\r\nContent-Length: "
              + payload.length
              + "\r\nConnection: close\r\n\r\n";
      var out = new ByteArrayOutputStream();
      out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(payload);
      return out.toByteArray();
    }
  }

  /** What the Kubernetes API server answers when a ResourceQuota refuses an object. */
  public static final Answer KUBERNETES_QUOTA =
      new Answer(
          403,
          "Forbidden",
          "application/json",
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
              + "\"exceeded quota: team-quota, requested: cpu=1, used: cpu=64, limited: cpu=64\","
              + "\"reason\":\"Forbidden\",\"code\":403}");

  /** What an AWS JSON-protocol service answers when an account limit is reached. */
  public static final Answer AWS_RESOURCE_LIMIT =
      new Answer(
          400,
          "Bad Request",
          "application/x-amz-json-1.1",
          "{\"__type\":\"ResourceLimitExceeded\",\"message\":\"The account-level service limit"
              + " for ml.m5.large is 0 Instances\"}");

  private static final Answer UNAVAILABLE =
      new Answer(503, "Service Unavailable", "text/plain", "upstream unavailable");

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Answer capacityAnswer;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            var t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile Mode mode = Mode.PASS;
  private volatile boolean closed;

  /**
   * @param targetPort the loopback port of the server behind the proxy
   * @param capacityAnswer what {@link Mode#CAPACITY} answers, e.g. {@link #KUBERNETES_QUOTA}
   */
  public FaultProxy(int targetPort, Answer capacityAnswer) {
    try {
      this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    this.capacityAnswer = capacityAnswer;
    threads.execute(this::acceptLoop);
  }

  /** {@code http://127.0.0.1:<port>}: where clients are pointed instead of the server. */
  public String url() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  public int port() {
    return server.getLocalPort();
  }

  public Mode mode() {
    return mode;
  }

  /** Switches the behaviour and cuts every open connection. */
  public void mode(Mode next) {
    mode = next;
    for (var socket : open) {
      closeQuietly(socket);
    }
  }

  /** Connections accepted so far, whatever their fate. */
  public int connections() {
    return connections.get();
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(server);
    open.forEach(FaultProxy::closeQuietly);
    threads.shutdownNow();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        var client = server.accept();
        connections.incrementAndGet();
        threads.execute(() -> handle(client, mode));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("fault proxy: accept failed: " + e);
        }
      }
    }
  }

  private void handle(Socket client, Mode now) {
    open.add(client);
    try {
      switch (now) {
        case PASS -> pass(client);
        case ERROR -> answer(client, UNAVAILABLE);
        case CAPACITY -> answer(client, capacityAnswer);
        case HANG -> drain(client);
        case RESET -> {
          client.setSoLinger(true, 0);
          client.close();
        }
      }
    } catch (IOException e) {
      // the peer or a mode switch closed it
    } finally {
      open.remove(client);
      closeQuietly(client);
    }
  }

  private void pass(Socket client) throws IOException {
    try (var upstream = new Socket()) {
      upstream.connect(target, 5_000);
      open.add(upstream);
      try {
        var back =
            threads.submit(
                () -> {
                  copy(upstream.getInputStream(), client.getOutputStream());
                  closeQuietly(client);
                  return null;
                });
        copy(client.getInputStream(), upstream.getOutputStream());
        upstream.shutdownOutput();
        back.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException e) {
        // one side closed
      } finally {
        open.remove(upstream);
      }
    }
  }

  /** Reads one request head (and its body, if it says how long) and answers it. */
  private static void answer(Socket client, Answer answer) throws IOException {
    var in = client.getInputStream();
    var head = readHead(in);
    if (head == null) {
      return;
    }
    var length = contentLength(head);
    in.readNBytes(length);
    client.getOutputStream().write(answer.bytes());
    client.getOutputStream().flush();
  }

  private static void drain(Socket client) throws IOException {
    var in = client.getInputStream();
    var buffer = new byte[8192];
    while (in.read(buffer) >= 0) {
      // read and never answer
    }
  }

  private static String readHead(InputStream in) throws IOException {
    var head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
      if (head.size() > 64 * 1024) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static int contentLength(String head) {
    for (var line : head.split("\r\n")) {
      var lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        return Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return 0;
  }

  private static void copy(InputStream in, OutputStream out) throws IOException {
    var buffer = new byte[16 * 1024];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      out.write(buffer, 0, n);
      out.flush();
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
