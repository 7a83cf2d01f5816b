package io.trainyard.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * A gateway started as a child process for the demo, with no configuration file (dev mode: H2 in
 * {@code ./data}, the local backend, the gateway as its own token issuer). Stopped on {@link
 * #close()} and, should the user press Ctrl-C, by a shutdown hook, so it never outlives the demo.
 */
final class DemoGateway implements AutoCloseable {
  static final URI APP = URI.create("http://127.0.0.1:8080");
  private static final URI HEALTH = URI.create("http://127.0.0.1:8081/healthcheck");
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);
  private static final Duration DEV_TOKEN_TIMEOUT = Duration.ofSeconds(90);
  private static final Pattern JWT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  private final Path root;
  private final Path jar;
  private final Path log;
  private final Process process;
  private final long startedNanos;
  private final Thread stopOnExit;

  private DemoGateway(
      Path root, Path jar, Path log, Process process, long startedNanos, PrintStream err) {
    this.root = root;
    this.jar = jar;
    this.log = log;
    this.process = process;
    this.startedNanos = startedNanos;
    this.stopOnExit =
        new Thread(
            () -> {
              if (process.isAlive()) {
                err.println();
                err.println("interrupted: stopping the gateway");
              }
              stop();
            },
            "trainyard-demo-stop");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Starts {@code java -jar JAR server} in {@code root}, its output going to {@code log}.
   *
   * @param err where to say so when a Ctrl-C stops the gateway
   */
  static DemoGateway start(Path root, Path jar, Path log, PrintStream err) {
    var builder =
        new ProcessBuilder(javaCommand(jar, "server"))
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    try {
      long started = System.nanoTime();
      return new DemoGateway(root, jar, log, builder.start(), started, err);
    } catch (IOException e) {
      throw CliException.failed("cannot start the gateway: " + e.getMessage());
    }
  }

  /**
   * Waits for the admin health check to answer 200.
   *
   * @param onPoll called on every unsuccessful poll (the demo prints a progress dot)
   * @return the time from process start to healthy
   */
  Duration awaitHealthy(Duration timeout, Runnable onPoll) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    var request = HttpRequest.newBuilder(HEALTH).timeout(Duration.ofSeconds(2)).GET().build();
    while (true) {
      if (!process.isAlive()) {
        throw CliException.failed(
            "the gateway stopped during start-up (exit code "
                + process.exitValue()
                + ") — see "
                + root.relativize(log));
      }
      if (answers200(http, request)) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
      }
      if (System.nanoTime() - startedNanos > timeout.toNanos()) {
        throw CliException.failed(
            "the gateway was not healthy after "
                + HumanDuration.format(timeout)
                + " — see "
                + root.relativize(log));
      }
      onPoll.run();
      pause(POLL);
    }
  }

  private static boolean answers200(HttpClient http, HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
  }

  /** Runs the gateway's {@code dev-token} command and returns the token it prints. */
  String devToken(String user, String team, String role) {
    var builder =
        new ProcessBuilder(
                javaCommand(jar, "dev-token", "--user", user, "--team", team, "--role", role))
            .directory(root.toFile())
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    String stdout;
    try {
      Process command = builder.start();
      var reading = CompletableFuture.supplyAsync(() -> readAll(command.getInputStream()));
      if (!command.waitFor(DEV_TOKEN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        command.destroyForcibly();
        throw CliException.failed(
            "`dev-token` did not finish in time — see " + root.relativize(log));
      }
      if (command.exitValue() != 0) {
        throw CliException.failed(
            "`dev-token` failed (exit code "
                + command.exitValue()
                + ") — see "
                + root.relativize(log));
      }
      stdout = reading.get(5, TimeUnit.SECONDS);
    } catch (IOException | ExecutionException | TimeoutException e) {
      throw CliException.failed("cannot run `dev-token`: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
    // The last JWT-shaped line: anything the command logs to stdout before it is ignored.
    List<String> tokens =
        stdout.lines().map(String::strip).filter(l -> JWT.matcher(l).matches()).toList();
    if (tokens.isEmpty()) {
      throw CliException.failed("`dev-token` printed no token — see " + root.relativize(log));
    }
    return tokens.get(tokens.size() - 1);
  }

  private static String readAll(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down and the hook has run or is running
    }
  }

  private synchronized void stop() {
    if (!process.isAlive()) {
      return;
    }
    // Captured first: once the gateway exits, its children are re-parented and out of reach.
    var children = process.descendants().toList();
    process.destroy(); // SIGTERM: Dropwizard stops its managed parts, the local backend included
    try {
      if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
  }

  /**
   * {@code java [-XX:SharedArchiveFile=trainyard.jsa] -jar JAR ARGS}: with the class-data-sharing
   * archive the build writes beside the jar (gateway/pom.xml) when there is one, which saves about
   * a second of class loading; a JVM that cannot map it (another JDK, a rebuilt jar) warns and
   * starts without.
   */
  static List<String> javaCommand(Path jar, String... args) {
    var command = new ArrayList<String>();
    command.add(java());
    var name = jar.getFileName().toString();
    var archive = jar.resolveSibling(name.replaceFirst("\\.jar$", "") + ".jsa");
    if (Files.isRegularFile(archive)) {
      command.add("-XX:SharedArchiveFile=" + archive);
    }
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(args));
    return command;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
  }
}
