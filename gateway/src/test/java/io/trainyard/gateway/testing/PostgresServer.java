package io.trainyard.gateway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * A throw-away PostgreSQL server: {@code initdb} in a temp directory, {@code pg_ctl start} on a
 * free 127.0.0.1 port, trust authentication, durability off (the data dies with the run anyway)
 * unless started {@link #startDurable durable} for crash tests. As root the binaries refuse to run,
 * so they run as {@code postgres} on a directory it owns.
 *
 * <p>Fault tests can {@link #stopFast() stop} the server and {@link #restart() start} it again on
 * the same port and data, the way an operator's failover or restart looks to a client.
 */
public final class PostgresServer implements AutoCloseable {
  static final String DEFAULT_BIN = "/usr/lib/postgresql/15/bin";

  private final Path bin;
  private final Path dir;
  private final int port;
  private final boolean asPostgres;
  private final boolean durable;
  private final AtomicInteger databases = new AtomicInteger();
  private final Thread shutdownHook;

  private PostgresServer(Path bin, Path dir, int port, boolean asPostgres, boolean durable) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asPostgres = asPostgres;
    this.durable = durable;
    // Backstop for a JVM that exits without closing the root store: no orphaned postmaster.
    this.shutdownHook = new Thread(this::stop, "postgres-stop");
  }

  /** {@code -Dtrainyard.pg.bin}, else the Debian binaries. */
  public static Path binDirectory() {
    return Path.of(System.getProperty("trainyard.pg.bin", DEFAULT_BIN));
  }

  static PostgresServer start(Path bin) {
    return start(bin, false);
  }

  /**
   * A server with production durability ({@code fsync}, {@code synchronous_commit} and {@code
   * full_page_writes} on): what a test that kills processes must run against for its figures to
   * mean anything. The caller closes it.
   */
  public static PostgresServer startDurable() {
    return start(binDirectory(), true);
  }

  private static PostgresServer start(Path bin, boolean durable) {
    if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
      throw new ExtensionConfigurationException(
          "PostgreSQL 15 binaries (initdb, pg_ctl) not found in "
              + bin
              + ": install the Debian package postgresql-15 (apt-get install postgresql-15),"
              + " or point -Dtrainyard.pg.bin at a directory that has them");
    }
    try {
      var dir = Files.createTempDirectory("trainyard-pg-");
      boolean asPostgres = "root".equals(System.getProperty("user.name"));
      if (asPostgres) {
        var postgres =
            dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
        Files.setOwner(dir, postgres);
      }
      var server = new PostgresServer(bin, dir, freePort(), asPostgres, durable);
      server.boot();
      Runtime.getRuntime().addShutdownHook(server.shutdownHook);
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start PostgreSQL from " + bin, e);
    }
  }

  private void boot() throws IOException {
    run(
        "initdb",
        "-D",
        dir.resolve("db").toString(),
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--no-locale",
        "--no-sync");
    pgCtlStart();
  }

  private void pgCtlStart() throws IOException {
    var options =
        "-c listen_addresses=127.0.0.1 -p "
            + port
            + " -k "
            + dir
            + (durable
                ? " -c fsync=on -c synchronous_commit=on -c full_page_writes=on"
                : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
            + " -c max_connections=200";
    run(
        "pg_ctl",
        "-D",
        dir.resolve("db").toString(),
        "-l",
        dir.resolve("log").toString(),
        "-w",
        "-t",
        "60",
        "-o",
        options,
        "start");
  }

  /**
   * Stops the server the way {@code pg_ctl stop -m fast} does: open sessions are cut, committed
   * data stays. {@link #restart()} brings it back on the same port.
   */
  public void stopFast() {
    try {
      run("pg_ctl", "-D", dir.resolve("db").toString(), "-m", "fast", "-w", "stop");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts a server {@link #stopFast() stopped} before, on the same port and data. */
  public void restart() {
    try {
      pgCtlStart();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return port;
  }

  /** A new, empty database on this server. */
  public TestDatabase createDatabase() throws SQLException {
    var name = "test_" + databases.incrementAndGet();
    try (var c = DriverManager.getConnection(url("postgres"), "postgres", "");
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return new TestDatabase("postgresql", "org.postgresql.Driver", url(name), "postgres");
  }

  /**
   * {@code pg_dump} of {@code db} as plain SQL into {@code out}: no owners, no grants, so that it
   * restores into any database ({@link #restore}).
   */
  public void dump(TestDatabase db, Path out) throws IOException {
    var name = db.url().substring(db.url().lastIndexOf('/') + 1);
    client(
        "pg_dump",
        "--no-owner",
        "--no-privileges",
        "--no-comments",
        "--file",
        out.toAbsolutePath().toString(),
        name);
  }

  /** A new database holding what {@code sql} (a {@link #dump}) describes. */
  public TestDatabase restore(Path sql) throws SQLException, IOException {
    var db = createDatabase();
    var name = db.url().substring(db.url().lastIndexOf('/') + 1);
    client(
        "psql",
        "--quiet",
        "--no-psqlrc",
        "--set",
        "ON_ERROR_STOP=1",
        "--file",
        sql.toAbsolutePath().toString(),
        name);
    return db;
  }

  /** A client program over TCP as {@code postgres} (trust authentication; root may run these). */
  private void client(String program, String... args) throws IOException {
    var command = new ArrayList<String>();
    command.add(bin.resolve(program).toString());
    command.addAll(List.of("--host", "127.0.0.1", "--port", String.valueOf(port), "--username"));
    command.add("postgres");
    command.addAll(List.of(args));
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + program, e);
    }
  }

  private String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      return; // the hook is running or about to
    }
    stop();
  }

  private void stop() {
    try {
      run("pg_ctl", "-D", dir.resolve("db").toString(), "-m", "immediate", "-w", "stop");
      try (var files = Files.walk(dir)) {
        for (var p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Nothing to do about it at the end of a run but say so.
      System.err.println("could not stop PostgreSQL in " + dir + ": " + e);
    }
  }

  private void run(String program, String... args) throws IOException {
    var command = new ArrayList<String>();
    if (asPostgres) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.add(bin.resolve(program).toString());
    command.addAll(List.of(args));
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command) + " failed:\n" + output + serverLog());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + program, e);
    }
  }

  private String serverLog() throws IOException {
    var log = dir.resolve("log");
    return Files.exists(log) ? "\nserver log:\n" + Files.readString(log) : "";
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
