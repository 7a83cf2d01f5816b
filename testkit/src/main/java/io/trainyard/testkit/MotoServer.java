package io.trainyard.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts moto ({@code python3 -m moto.server}) once per test JVM on a free 127.0.0.1 port, shared
 * by every test class that uses it, and stops it when the run ends. moto serves SageMaker
 * (create/describe/list/tags) and CloudWatch Logs with the real wire protocols. Fails clearly when
 * moto is not installed, since it cannot be fetched during the build.
 */
public final class MotoServer implements BeforeAllCallback {
  private static final Duration READY_WITHIN = Duration.ofSeconds(30);
  private static Running running;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (MotoServer.class) {
      if (running == null) {
        running = start();
        // The root store closes its AutoCloseable values when the whole run ends.
        context
            .getRoot()
            .getStore(ExtensionContext.Namespace.GLOBAL)
            .put(MotoServer.class, running);
      }
    }
  }

  /** {@code http://127.0.0.1:<port>}, for {@code endpoint:} of a backend block. */
  public static String endpoint() {
    if (running == null) {
      throw new IllegalStateException("@ExtendWith(MotoServer.class) starts moto first");
    }
    return "http://127.0.0.1:" + running.port();
  }

  /** Starts a moto of its own, for a main outside JUnit; close it when done. */
  public static Running start() throws Exception {
    requireMoto();
    int port;
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    var log = Files.createTempFile("moto-", ".log");
    var builder =
        new ProcessBuilder("python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // The request recorder writes beside the log, never into the working tree.
    builder
        .environment()
        .put(
            "MOTO_RECORDER_FILEPATH",
            log.resolveSibling(log.getFileName() + ".recording").toString());
    var process = builder.start();
    var server = new Running(process, port, log);
    // A run that is killed must not leave moto behind.
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    try {
      awaitReady(server);
      return server;
    } catch (Exception e) {
      server.close();
      throw e;
    }
  }

  private static void requireMoto() throws IOException, InterruptedException {
    var check = new ProcessBuilder("python3", "-c", "import moto").redirectErrorStream(true);
    int exit;
    try {
      var p = check.start();
      p.getInputStream().readAllBytes();
      exit = p.waitFor();
    } catch (IOException e) {
      throw new IllegalStateException("these tests need python3 with moto 5 (not found)", e);
    }
    if (exit != 0) {
      throw new IllegalStateException(
          "these tests need moto: `python3 -c 'import moto'` fails; install it with"
              + " `pip install 'moto[server]==5.2.1'` (or the image's python3-moto)");
    }
  }

  private static void awaitReady(Running server) throws Exception {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/moto-api/"))
            .timeout(Duration.ofSeconds(2))
            .build();
    var deadline = System.nanoTime() + READY_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.process().isAlive()) {
        throw new IllegalStateException(
            "moto exited at start: " + Files.readString(server.log()).strip());
      }
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("moto did not answer within " + READY_WITHIN);
  }

  public record Running(Process process, int port, Path log) implements AutoCloseable {
    public String endpoint() {
      return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
