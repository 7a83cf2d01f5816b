package io.trainyard.bench.audit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL 15 server for one benchmark run, from the Debian binaries, as the gateway's tests
 * start one; but durable by default ({@code fsync} and {@code synchronous_commit} on), because the
 * cost of a commit is what the two ordering ways differ in.
 */
public final class ThrowawayPostgres implements AutoCloseable {
  private final Path bin;
  private final Path dir;
  private final int port;
  private final boolean asPostgres;

  private ThrowawayPostgres(Path bin, Path dir, int port, boolean asPostgres) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asPostgres = asPostgres;
  }

  public static ThrowawayPostgres start(Path bin, boolean durable) throws IOException {
    var dir = Files.createTempDirectory("trainyard-bench-pg-");
    boolean asPostgres = "root".equals(System.getProperty("user.name"));
    if (asPostgres) {
      var postgres =
          dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
      Files.setOwner(dir, postgres);
    }
    int port;
    try (var socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = socket.getLocalPort();
    }
    var server = new ThrowawayPostgres(bin, dir, port, asPostgres);
    var db = dir.resolve("db").toString();
    server.run("initdb", "-D", db, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale");
    var options =
        "-c listen_addresses=127.0.0.1 -p "
            + port
            + " -k "
            + dir
            + " -c max_connections=64 -c shared_buffers=256MB"
            + (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off");
    server.run(
        "pg_ctl", "-D", db, "-l", dir.resolve("log").toString(), "-w", "-o", options, "start");
    return server;
  }

  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  @Override
  public void close() throws IOException {
    run("pg_ctl", "-D", dir.resolve("db").toString(), "-m", "immediate", "-w", "stop");
    try (var files = Files.walk(dir)) {
      for (var p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
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
      if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException(String.join(" ", command) + " failed:\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
