package io.trainyard.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts Azurite, Microsoft's Azure Storage emulator (blob service only, in memory), on a free
 * loopback port once per JVM and stops it when the test run ends; test methods get it as an {@link
 * AzuriteServer} parameter.
 *
 * <p>Azurite comes from the npm registry, at the version and with the dependency tree pinned by
 * {@code src/test/resources/azurite/package.json} and its {@code package-lock.json}. It is
 * installed once per machine with {@code npm ci} into {@code ~/.cache/trainyard/azurite-<version>-
 * <lock hash>} ({@code $XDG_CACHE_HOME} if set), never into the source tree, and reused while that
 * folder is there: the first install takes 15 to 45 s (machine load) and 190 MB. Without npm on the
 * PATH the tests fail saying so.
 */
public final class AzuriteServer implements BeforeAllCallback, ParameterResolver {
  /**
   * The storage emulator's well-known development account and key. They are public constants,
   * published by Microsoft so that every tool can talk to the emulator: "Connect to Azurite with
   * SDKs and tools", section "Use a well-known storage account and key",
   * https://learn.microsoft.com/azure/storage/common/storage-connect-azurite
   */
  public static final String ACCOUNT = "devstoreaccount1";

  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final String VERSION = "3.35.0";
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private String endpoint;

  /** The blob endpoint in path style: the account is the first path segment, as on Azurite. */
  public String endpoint() {
    return endpoint;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    var store = context.getRoot().getStore(ExtensionContext.Namespace.create(AzuriteServer.class));
    endpoint = store.getOrComputeIfAbsent("server", key -> Running.start(), Running.class).endpoint;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == AzuriteServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return this;
  }

  /** The process, closed by JUnit when the root context (the whole run) closes. */
  private static final class Running implements AutoCloseable {
    final Process process;
    final String endpoint;
    final Path workDir;

    private Running(Process process, String endpoint, Path workDir) {
      this.process = process;
      this.endpoint = endpoint;
      this.workDir = workDir;
    }

    static Running start() {
      var main = Install.ensure().resolve("node_modules/azurite/dist/src/blob/main.js");
      try {
        int port = freePort();
        var workDir = Files.createTempDirectory("azurite-");
        var log = workDir.resolve("azurite.log");
        var process =
            new ProcessBuilder(
                    "node",
                    main.toString(),
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    Integer.toString(port),
                    // Nothing on disk; the working directory only catches stray files.
                    "--inMemoryPersistence",
                    // jclouds 2.7.0 sends x-ms-version 2017-11-09, older than Azurite accepts.
                    "--skipApiVersionCheck",
                    // Take the account from the first path segment, never from the host name.
                    "--disableProductStyleUrl",
                    "--disableTelemetry")
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        var running = new Running(process, "http://127.0.0.1:" + port + "/" + ACCOUNT, workDir);
        running.awaitReady(port, log);
        return running;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start Azurite", e);
      }
    }

    private void awaitReady(int port, Path log) throws IOException {
      var deadline = Instant.now().plus(START_TIMEOUT);
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          throw new IllegalStateException("Azurite exited: " + Files.readString(log));
        }
        try {
          // Unsigned, so Azurite answers 403: any answer means it is listening.
          var url = URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT + "?comp=list").toURL();
          var connection = (HttpURLConnection) url.openConnection();
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
      throw new IllegalStateException("Azurite did not answer within " + START_TIMEOUT);
    }

    private static int freePort() throws IOException {
      try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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
      delete(workDir);
    }
  }

  /** The per-machine install: one folder per lock file, made whole or not at all. */
  private static final class Install {
    static Path ensure() {
      byte[] packageJson = resource("package.json");
      byte[] lock = resource("package-lock.json");
      var cache = cacheRoot();
      var dir = cache.resolve("azurite-" + VERSION + "-" + sha256(lock).substring(0, 12));
      var ready = dir.resolve(".installed");
      if (Files.exists(ready)) {
        return dir;
      }
      try {
        Files.createDirectories(cache);
        // Several test JVMs (modules built in parallel) may get here at once: one installs.
        try (var channel =
            FileChannel.open(
                cache.resolve("azurite.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
          channel.lock(); // released when the channel closes
          if (Files.exists(ready)) {
            return dir;
          }
          // Holding the lock, no install is under way: staging folders are from killed runs.
          try (var stale = Files.newDirectoryStream(cache, "azurite-*.staging-*")) {
            stale.forEach(AzuriteServer::delete);
          }
          var staging = Files.createTempDirectory(cache, "azurite-" + VERSION + ".staging-");
          Files.write(staging.resolve("package.json"), packageJson);
          Files.write(staging.resolve("package-lock.json"), lock);
          npmCi(staging);
          delete(dir); // a folder left without its marker by an interrupted run
          Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
          Files.createFile(ready);
          return dir;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot install Azurite into " + dir, e);
      }
    }

    private static void npmCi(Path dir) throws IOException {
      var log = dir.resolve("npm-ci.log");
      Process npm;
      try {
        npm =
            new ProcessBuilder(
                    List.of(
                        "npm",
                        "ci",
                        "--no-audit",
                        "--no-fund",
                        "--ignore-scripts",
                        "--loglevel=error"))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
      } catch (IOException e) {
        delete(dir);
        throw new IllegalStateException(
            "npm is not on the PATH: the azureblob sink tests install Azurite "
                + VERSION
                + " from the npm registry with it (Node.js 20 or later with npm)",
            e);
      }
      try {
        if (!npm.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          npm.destroyForcibly();
          throw new IllegalStateException("npm ci of Azurite took over " + INSTALL_TIMEOUT);
        }
      } catch (InterruptedException e) {
        npm.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while installing Azurite", e);
      }
      if (npm.exitValue() != 0) {
        var output = Files.readString(log);
        delete(dir);
        throw new IllegalStateException(
            "npm ci of Azurite " + VERSION + " failed (exit " + npm.exitValue() + "):\n" + output);
      }
    }

    private static Path cacheRoot() {
      var xdg = System.getenv("XDG_CACHE_HOME");
      var base =
          xdg != null && !xdg.isBlank()
              ? Path.of(xdg)
              : Path.of(System.getProperty("user.home"), ".cache");
      return base.resolve("trainyard");
    }

    private static byte[] resource(String name) {
      try (InputStream in = AzuriteServer.class.getResourceAsStream("/azurite/" + name)) {
        if (in == null) {
          throw new IllegalStateException("no azurite/" + name + " on the test class path");
        }
        return in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String sha256(byte[] bytes) {
      try {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
