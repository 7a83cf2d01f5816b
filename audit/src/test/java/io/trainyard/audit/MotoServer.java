package io.trainyard.audit;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts moto (a local AWS, ../shared/REAL-COMPONENTS.md) on a free loopback port once per JVM and
 * stops it when the test run ends; test methods get its endpoint as a {@link MotoServer} parameter.
 * moto cannot be installed from here (no PyPI), so its absence fails with a message.
 */
final class MotoServer implements BeforeAllCallback, ParameterResolver {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private String endpoint;

  String endpoint() {
    return endpoint;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    var store = context.getRoot().getStore(ExtensionContext.Namespace.create(MotoServer.class));
    endpoint = store.getOrComputeIfAbsent("server", key -> Running.start(), Running.class).endpoint;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == MotoServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return this;
  }

  /** The process, closed by JUnit when the root context (the whole run) closes. */
  private static final class Running implements AutoCloseable {
    final Process process;
    final String endpoint;

    private Running(Process process, String endpoint) {
      this.process = process;
      this.endpoint = endpoint;
    }

    static Running start() {
      requireMoto();
      try {
        int port = freePort();
        var log = Files.createTempFile("moto-", ".log");
        var process =
            new ProcessBuilder(
                    "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        var running = new Running(process, "http://127.0.0.1:" + port);
        running.awaitReady(log);
        return running;
      } catch (IOException e) {
        throw new IllegalStateException("cannot start moto", e);
      }
    }

    private static void requireMoto() {
      try {
        var check =
            new ProcessBuilder("python3", "-c", "import moto").redirectErrorStream(true).start();
        if (check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0) {
          return;
        }
      } catch (IOException e) {
        // handled below: no python3 at all
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException(
          "moto is not installed: these tests need `python3 -c 'import"
              + " moto'` to work (moto 5 with its server, see ../shared/REAL-COMPONENTS.md)");
    }

    private void awaitReady(Path log) throws IOException {
      var deadline = Instant.now().plus(START_TIMEOUT);
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          throw new IllegalStateException("moto exited: " + Files.readString(log));
        }
        try {
          var connection = (HttpURLConnection) URI.create(endpoint + "/").toURL().openConnection();
          connection.setConnectTimeout(500);
          connection.setReadTimeout(2000);
          if (connection.getResponseCode() > 0) {
            return;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      close();
      throw new IllegalStateException("moto did not answer within " + START_TIMEOUT);
    }

    private static int freePort() throws IOException {
      try (var socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
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
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
