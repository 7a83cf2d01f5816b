package io.trainyard.gateway.testing;

import io.trainyard.gateway.idp.KeycloakAdminConnection;
import io.trainyard.gateway.idp.TestRealm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.keycloak.admin.client.Keycloak;

/**
 * A real Keycloak 26.4.7 for the test run, started once per JVM from the distribution the build
 * unpacks into {@code target/keycloak} (see gateway/pom.xml), with the realm {@link #REALM}
 * imported ({@link TestRealm}). Test classes get a {@link Server} or the {@link TestRealm} as
 * parameters; configuration suppliers that run before parameters exist use {@link #realm()}.
 *
 * <p>Keycloak binds to 127.0.0.1 on a free port, runs on an in-memory database (so every run starts
 * clean), with a 512 MB heap, and is stopped when the run ends (the root store closes it) or the
 * JVM exits. Its log is {@code target/keycloak/keycloak.log}.
 *
 * <p>Set {@code -Dtrainyard.keycloak.home=DIR} to use another unpacked distribution.
 */
public final class KeycloakExtension implements BeforeAllCallback, ParameterResolver {
  public static final String VERSION = "26.4.7";
  public static final String REALM = "trainyard-it";
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(KeycloakExtension.class);
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);

  private static volatile Server started;

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root store outlives every test class; JUnit closes its AutoCloseable values at the end.
    started =
        context
            .getRoot()
            .getStore(NS)
            .getOrComputeIfAbsent(Server.class, k -> Server.start(home()), Server.class);
  }

  /** The imported realm, once some test class has started Keycloak. */
  public static TestRealm realm() {
    return server().realm;
  }

  /** The running Keycloak, once some test class has started it. */
  public static Server server() {
    if (started == null) {
      throw new IllegalStateException("KeycloakExtension has not started Keycloak yet");
    }
    return started;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    var type = parameter.getParameter().getType();
    return type == Server.class || type == TestRealm.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    var server = context.getRoot().getStore(NS).get(Server.class, Server.class);
    return parameter.getParameter().getType() == Server.class ? server : server.realm;
  }

  private static Path home() {
    var configured = System.getProperty("trainyard.keycloak.home");
    var home =
        configured != null
            ? Path.of(configured)
            : Path.of("target", "keycloak", "keycloak-" + VERSION).toAbsolutePath();
    if (!Files.isExecutable(home.resolve("bin/kc.sh"))) {
      throw new IllegalStateException(
          "No Keycloak "
              + VERSION
              + " distribution at "
              + home
              + ". The gateway build unpacks org.keycloak:keycloak-quarkus-dist:"
              + VERSION
              + ":zip there before the ITs (phase pre-integration-test): run"
              + " `mvn -B -pl gateway verify`, or set -Dtrainyard.keycloak.home=DIR.");
    }
    return home;
  }

  /** One running Keycloak. */
  public static final class Server implements AutoCloseable {
    private final Process process;
    private final String url;
    private final String adminPassword;
    private final TestRealm realm;
    private final List<Keycloak> adminClients = new ArrayList<>();
    private final Thread shutdownHook;
    private volatile Duration startupTime;

    private Server(Process process, String url, String adminPassword, TestRealm realm) {
      this.process = process;
      this.url = url;
      this.adminPassword = adminPassword;
      this.realm = realm;
      this.shutdownHook = new Thread(this::stopProcess, "keycloak-stop");
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    static Server start(Path home) {
      var realm = TestRealm.forImport(REALM);
      var port = freePort();
      var url = "http://127.0.0.1:" + port;
      var adminPassword = UUID.randomUUID().toString().replace("-", "");
      var log = home.getParent().resolve("keycloak.log");
      Process process;
      var begin = Instant.now();
      try {
        var imports = home.resolve("data/import");
        Files.createDirectories(imports);
        try (var old = Files.list(imports)) {
          for (var file : old.toList()) {
            Files.delete(file);
          }
        }
        Files.writeString(imports.resolve(REALM + "-realm.json"), realm.json());
        var builder =
            new ProcessBuilder(
                    home.resolve("bin/kc.sh").toString(),
                    "start-dev",
                    "--http-host=127.0.0.1",
                    "--http-port=" + port,
                    "--http-management-port=" + freePort(),
                    // Tokens name this issuer however they were asked for.
                    "--hostname=" + url,
                    // A fresh database every start: no realm left over from an earlier run.
                    "--db=dev-mem",
                    "--import-realm")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        var env = builder.environment();
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
        env.put("JAVA_OPTS_KC_HEAP", "-Xms128m -Xmx512m");
        // Two cores are shared with the build: start quickly rather than run fast.
        env.put("JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1");
        process = builder.start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start Keycloak from " + home, e);
      }
      realm.servedBy(url);
      var server = new Server(process, url, adminPassword, realm);
      try {
        awaitRealm(process, realm.issuer(), log);
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      server.startupTime = Duration.between(begin, Instant.now());
      System.out.printf(
          "Keycloak %s served realm %s at %s after %d s%n",
          VERSION, REALM, url, server.startupTime.toSeconds());
      return server;
    }

    private static void awaitRealm(Process process, String realmUrl, Path log) {
      var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      var deadline = Instant.now().plus(STARTUP_TIMEOUT);
      var request =
          HttpRequest.newBuilder(URI.create(realmUrl)).timeout(Duration.ofSeconds(5)).build();
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "Keycloak exited with " + process.exitValue() + " while starting; see " + log);
        }
        try {
          if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException e) {
          // not listening yet
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        sleep(Duration.ofMillis(500));
      }
      throw new IllegalStateException(
          "Keycloak did not serve " + realmUrl + " within " + STARTUP_TIMEOUT + "; see " + log);
    }

    /** Keycloak's base URL, e.g. {@code http://127.0.0.1:43121}. */
    public String url() {
      return url;
    }

    public String adminPassword() {
      return adminPassword;
    }

    /** How long Keycloak took to serve the imported realm. */
    public Duration startupTime() {
      return startupTime;
    }

    /** A new admin client of the master realm; closed with the server. */
    public synchronized Keycloak admin() {
      var admin = KeycloakAdminConnection.asAdmin(url, "master", "admin", adminPassword);
      adminClients.add(admin);
      return admin;
    }

    @Override
    public void close() {
      synchronized (this) {
        adminClients.forEach(Keycloak::close);
      }
      stopProcess();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down
      }
    }

    private void stopProcess() {
      var children = process.descendants().toList();
      process.destroy(); // kc.sh passes SIGTERM on to Keycloak's JVM
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      children.forEach(ProcessHandle::destroyForcibly);
    }

    private static int freePort() {
      try (var socket = new ServerSocket(0)) {
        return socket.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static void sleep(Duration duration) {
      try {
        Thread.sleep(duration.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
