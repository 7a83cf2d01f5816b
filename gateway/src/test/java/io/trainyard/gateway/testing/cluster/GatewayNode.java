package io.trainyard.gateway.testing.cluster;

import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One gateway process of a {@link GatewayCluster}: {@code java -jar trainyard.jar server
 * config.yml} with its own directory, config and fixed loopback ports, which survive a {@link
 * #kill() kill} and {@link #start() restart} so that clients keep their address. Its standard
 * output and error are appended to {@link #log()} across restarts. Not thread-safe: one test thread
 * drives the process's life.
 */
public final class GatewayNode {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Path jar;
  private final Path dir;
  private final Path config;
  private final int appPort;
  private final int adminPort;
  private final List<String> jvmOptions;
  private final Map<String, String> environment;
  private Process process;

  GatewayNode(
      String name,
      Path jar,
      Path dir,
      Path config,
      int appPort,
      int adminPort,
      List<String> jvmOptions,
      Map<String, String> environment) {
    this.name = name;
    this.jar = jar;
    this.dir = dir;
    this.config = config;
    this.appPort = appPort;
    this.adminPort = adminPort;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.environment = Map.copyOf(environment);
  }

  public String name() {
    return name;
  }

  public int appPort() {
    return appPort;
  }

  public int adminPort() {
    return adminPort;
  }

  /** The node's data directory (its {@code dataDir}: audit exports, log archives). */
  public Path dir() {
    return dir;
  }

  /** Everything the process printed, across restarts. */
  public Path log() {
    return dir.resolve("gateway.log");
  }

  public GatewayClient client() {
    return new GatewayClient(appPort);
  }

  /** Starts the process and returns at once; see {@link #awaitReady(Duration)}. */
  public void start() {
    if (isAlive()) {
      throw new IllegalStateException(name + " is already running");
    }
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString(), "server", config.toString()));
    var builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
    // Nothing of the build's environment (a TRAINYARD_TOKEN, say) leaks into the gateway.
    var env = builder.environment();
    var path = env.get("PATH");
    env.clear();
    env.put("PATH", path == null ? "/usr/bin:/bin" : path);
    env.put("HOME", dir.toString());
    env.putAll(environment);
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  /**
   * Waits until the application port answers {@code GET /openapi.json} with 200, which Dropwizard
   * does only after the whole {@code run()} (migrations included) has finished.
   *
   * @throws AssertionError with the end of the node's log if it died or did not get ready in time
   */
  public void awaitReady(Duration timeout) {
    var deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + logTail());
      }
      if (answers()) {
        return;
      }
      sleep(Duration.ofMillis(100));
    }
    throw new AssertionError(name + " not ready after " + timeout + ":\n" + logTail());
  }

  /** {@code kill -9}: no shutdown hook, no orderly close of connections or transactions. */
  public void kill() {
    if (process == null) {
      return;
    }
    process.destroyForcibly(); // SIGKILL on Linux
    awaitExit();
  }

  /** {@code kill} (SIGTERM): Dropwizard's orderly shutdown. */
  public void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    awaitExit();
  }

  /**
   * Sends SIGTERM and returns at once, for a test that acts while the node drains; see {@link
   * #awaitExit(Duration)}.
   */
  public void terminate() {
    process.destroy();
  }

  /**
   * Waits for the process to end.
   *
   * @return its exit code
   * @throws AssertionError with the end of its log if it is still running after {@code timeout}
   */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " still running after " + timeout + ":\n" + logTail());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether the application port answers now (see {@link #awaitReady(Duration)}). */
  public boolean isReady() {
    return isAlive() && answers();
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The operating system's process id, for a test that signals it itself. */
  public long pid() {
    return process.pid();
  }

  /** The last 4,000 characters the process printed. */
  public String logTail() {
    try {
      if (!Files.exists(log())) {
        return "(no log)";
      }
      var all = Files.readString(log(), StandardCharsets.UTF_8);
      return all.substring(Math.max(0, all.length() - 4000));
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  private boolean answers() {
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + appPort + "/openapi.json"))
            .timeout(Duration.ofSeconds(2))
            .GET()
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return name + " (app " + appPort + ", admin " + adminPort + ")";
  }
}
