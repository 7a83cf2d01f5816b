package io.trainyard.bench.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
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
 * A real gateway process for a scenario: {@code java [options] -cp trainyard.jar[:extra]
 * io.trainyard.gateway.TrainyardApplication server config.yml} in a directory of its own, so what
 * is measured is the shipped jar over loopback, not an in-process shortcut. The config is the
 * scenario's, with the two ports replaced by free ones ({@code ${APP_PORT}}, {@code
 * ${ADMIN_PORT}}); its output goes to {@code gateway.log} in the directory.
 */
public final class GatewayProcess implements AutoCloseable {
  private static final String MAIN = "io.trainyard.gateway.TrainyardApplication";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path dir;
  private final Path config;
  private final List<String> classpath;
  private final int appPort;
  private final int adminPort;
  private final Process process;

  private GatewayProcess(
      Path dir, Path config, List<String> classpath, int appPort, int adminPort, Process process) {
    this.dir = dir;
    this.config = config;
    this.classpath = classpath;
    this.appPort = appPort;
    this.adminPort = adminPort;
    this.process = process;
  }

  /**
   * The shipped jar: {@code -Dtrainyard.jar}, else {@code gateway/target/trainyard.jar} from the
   * repository root or from a module directory (as Maven runs tests).
   */
  public static Path gatewayJar() {
    var named = System.getProperty("trainyard.jar");
    if (named != null) {
      return Path.of(named).toAbsolutePath();
    }
    for (var candidate :
        List.of(
            Path.of("gateway/target/trainyard.jar"), Path.of("../gateway/target/trainyard.jar"))) {
      if (Files.isRegularFile(candidate)) {
        return candidate.toAbsolutePath().normalize();
      }
    }
    throw new IllegalStateException(
        "gateway/target/trainyard.jar not found: build first (mvn -B -DskipTests package)"
            + " or pass -Dtrainyard.jar=");
  }

  /**
   * Starts a gateway with {@code configYaml} (ports as {@code ${APP_PORT}}/{@code ${ADMIN_PORT}})
   * and waits until its application port serves.
   *
   * @param extraClasspath jars or directories put after the gateway's (a stub backend plugin)
   * @param jvmOptions e.g. {@code -Xmx1g}, {@code -XX:StartFlightRecording=...}
   */
  public static GatewayProcess start(
      String configYaml,
      List<Path> extraClasspath,
      List<String> jvmOptions,
      Map<String, String> environment,
      Duration timeout) {
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(configYaml, extraClasspath, jvmOptions, environment, timeout);
      } catch (IllegalStateException e) {
        // A free port found here can be taken by another process before the gateway binds it:
        // try other ports rather than fail the scenario on someone else's timing.
        if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
      }
    }
  }

  private static GatewayProcess startOnce(
      String configYaml,
      List<Path> extraClasspath,
      List<String> jvmOptions,
      Map<String, String> environment,
      Duration timeout) {
    try {
      var dir = Files.createTempDirectory("trainyard-bench-");
      int app = freePort();
      int admin = freePort();
      var config = dir.resolve("config.yml");
      Files.writeString(
          config,
          configYaml
              .replace("${APP_PORT}", Integer.toString(app))
              .replace("${ADMIN_PORT}", Integer.toString(admin)));
      var classpath = new ArrayList<String>();
      // -Dbench.gatewayClasses=gateway/target/classes: freshly compiled classes ahead of the jar,
      // to try a change without re-packaging the jar (profiling rounds); unset for figures.
      var classes = System.getProperty("bench.gatewayClasses", "").strip();
      if (!classes.isEmpty()) {
        for (var entry : classes.split(":")) {
          classpath.add(Path.of(entry).toAbsolutePath().toString());
        }
      }
      classpath.add(gatewayJar().toString());
      extraClasspath.forEach(p -> classpath.add(p.toAbsolutePath().toString()));
      var command = new ArrayList<String>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.addAll(extraJvmOptions());
      command.addAll(
          List.of("-cp", String.join(":", classpath), MAIN, "server", config.toString()));
      var builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("gateway.log").toFile());
      builder.environment().putAll(environment);
      var gateway =
          new GatewayProcess(dir, config, List.copyOf(classpath), app, admin, builder.start());
      gateway.awaitServing(timeout);
      return gateway;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * JVM options every scenario's gateway gets on top of its own, from {@code -Dbench.gatewayJvm}
   * (space-separated), e.g. {@code -XX:StartFlightRecording=duration=60s,filename=/tmp/read.jfr} to
   * profile a scenario without changing it.
   */
  static List<String> extraJvmOptions() {
    var named = System.getProperty("bench.gatewayJvm", "").strip();
    return named.isEmpty() ? List.of() : List.of(named.split("\\s+"));
  }

  public int appPort() {
    return appPort;
  }

  public int adminPort() {
    return adminPort;
  }

  public Path dir() {
    return dir;
  }

  public long pid() {
    return process.pid();
  }

  public URI app(String path) {
    return URI.create("http://127.0.0.1:" + appPort + path);
  }

  public URI admin(String path) {
    return URI.create("http://127.0.0.1:" + adminPort + path);
  }

  /**
   * A token from the gateway's dev issuer ({@code dev-token}; the config must be in dev mode), run
   * in the gateway's directory so it signs with the same key.
   */
  public String devToken(String user, String team, String role) {
    try {
      var command =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              String.join(":", classpath),
              MAIN,
              "dev-token",
              "--user",
              user,
              "--team",
              team,
              "--role",
              role,
              config.toString());
      var p = new ProcessBuilder(command).directory(dir.toFile()).start();
      var out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      p.getErrorStream().readAllBytes();
      if (p.waitFor() != 0 || out.isEmpty()) {
        throw new IllegalStateException("dev-token failed (exit " + p.exitValue() + ")");
      }
      var lines = out.split("\n");
      return lines[lines.length - 1].strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The end of the gateway's output, for an error message. */
  public String logTail() {
    try {
      var all = Files.readString(dir.resolve("gateway.log"), StandardCharsets.UTF_8);
      return all.substring(Math.max(0, all.length() - 4000));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private void awaitServing(Duration timeout) {
    var deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "gateway exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        var status =
            HTTP.send(
                    HttpRequest.newBuilder(app("/openapi.json"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode();
        if (status == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    close();
    throw new IllegalStateException("gateway not serving after " + timeout + ":\n" + logTail());
  }

  /** SIGTERM, then SIGKILL after 30 s; the directory is kept when {@code -Dbench.keep} is set. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (System.getProperty("bench.keep") == null) {
      deleteQuietly(dir);
    } else {
      System.err.println("gateway directory kept: " + dir);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is harmless
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
