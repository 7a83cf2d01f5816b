package io.trainyard.bench.submit;

import io.trainyard.audit.DigestSigner;
import io.trainyard.bench.audit.ThrowawayPostgres;
import io.trainyard.bench.load.GatewayProcess;
import io.trainyard.bench.load.LoadDriver;
import io.trainyard.bench.load.Requests;
import io.trainyard.bench.load.Sample;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 19's submissions goal: accepted {@code POST /v1/jobs} per second against concurrent
 * clients, with group commit off (each submission its own transaction, as before) and on, side by
 * side in each run.
 *
 * <p>Each mode of each run gets a fresh database on one throw-away PostgreSQL with its durable
 * defaults ({@code fsync}, {@code synchronous_commit} on) and a real gateway process (the shipped
 * jar, {@code auth.mode: oidc} against an in-process issuer since dev auth refuses PostgreSQL, the
 * audit chain fail-closed, the reconciler running) whose one backend is the stub plugin ({@link
 * StubBackendFactory}: it offers every job, accepts it at once and reports it finished). Clients
 * are closed-loop, each POST a distinct job name with its own {@code Idempotency-Key}; only 201 is
 * counted as answered.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.trainyard.bench.submit.SubmitScenario \
 *     [--clients 1,8,64,256] [--seconds 10] [--warmup 3] [--runs 3] [--jfr DIR] \
 *     [--pg-bin /usr/lib/postgresql/15/bin] [--durable true]
 * </pre>
 */
public final class SubmitScenario {
  static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: %s}
      spec:
        framework: pytorch
        image: python:3.11
        command: [python3, -c, "print(1)"]
        replicas: {master: 1}
        resources: {cpus: 1, memory: 1Gi}
      """;

  /** What to run. */
  public record Options(
      List<Integer> clients,
      Duration warmUp,
      Duration measure,
      int runs,
      Path pgBin,
      boolean durable,
      Path jfrDir) {}

  /** One mode's sample at one client count in one run. */
  public record Point(int run, boolean groupCommit, Sample sample) {}

  private SubmitScenario() {}

  public static void main(String[] args) {
    var options = parse(args);
    var points = run(options);
    System.out.println(Sample.header());
    for (var p : points) {
      System.out.println(p.sample().row() + " run " + p.run());
    }
    System.out.println();
    System.out.println(summary(points, options.clients()));
  }

  /** Every run, both modes in each (off first), every client count in each mode. */
  public static List<Point> run(Options options) {
    var points = new ArrayList<Point>();
    var issuer = TestIssuer.start();
    try (var pg = ThrowawayPostgres.start(options.pgBin(), options.durable())) {
      var keys = Files.createTempDirectory("trainyard-bench-keys-");
      DigestSigner.loadOrGenerate(keys);
      var hmac = new byte[32];
      new SecureRandom().nextBytes(hmac);
      var plugin = StubPluginJar.write(keys);
      var token = issuer.mint("bench", List.of("ml"), List.of("trainer"));
      for (int run = 1; run <= options.runs(); run++) {
        for (var groupCommit : List.of(false, true)) {
          var database = "submit_" + (groupCommit ? "on" : "off") + "_" + run;
          createDatabase(pg.url(), database);
          var config =
              config(
                  pg.url().replace("/postgres", "/" + database),
                  groupCommit,
                  issuer.issuer(),
                  keys.resolve(DigestSigner.PRIVATE_KEY_FILE),
                  Base64.getEncoder().encodeToString(hmac));
          var jvm = new ArrayList<String>();
          if (options.jfrDir() != null && run == 1) {
            jvm.add(
                "-XX:StartFlightRecording=settings=profile,filename="
                    + options
                        .jfrDir()
                        .resolve("submit-" + (groupCommit ? "on" : "off") + ".jfr")
                        .toAbsolutePath());
          }
          try (var gateway =
              GatewayProcess.start(config, List.of(plugin), jvm, Map.of(), Duration.ofMinutes(2))) {
            // One submission first, unmeasured: the gateway's first one loads classes and warms
            // its pools, and a broken set-up fails here with the gateway's own answer.
            var first = Requests.send(post(gateway, token, "r" + run + "-first"));
            if (first.statusCode() != 201) {
              throw new IllegalStateException(
                  "the first submission answered " + first.statusCode() + ": " + first.body());
            }
            var driver = LoadDriver.http11().metering(gateway.pid());
            for (var clients : options.clients()) {
              var prefix = "r" + run + "-c" + clients + "-";
              var sample =
                  driver.run(
                      "group commit " + (groupCommit ? "on" : "off"),
                      clients,
                      options.warmUp(),
                      options.measure(),
                      n -> post(gateway, token, prefix + n),
                      status -> status == 201);
              points.add(new Point(run, groupCommit, sample));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      issuer.close();
    }
    return points;
  }

  private static HttpRequest post(GatewayProcess gateway, String token, String name) {
    return HttpRequest.newBuilder(gateway.app("/v1/jobs"))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/yaml")
        .header("Idempotency-Key", name)
        .timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofString(JOB.formatted("bench-" + name)))
        .build();
  }

  static String config(
      String databaseUrl, boolean groupCommit, String issuer, Path signingKey, String hmacKey) {
    return """
        dataDir: ./data
        database: {url: "%s", user: postgres, password: "", groupCommit: %s}
        audit: {signingKeyFile: "%s", hmacKey: "%s"}
        auth: {mode: oidc, issuer: "%s", audience: trainyard}
        # One token drives up to 256 clients: lift the per-caller bound (64) out of the way.
        callerRequests: {maxConcurrent: 1024}
        logging: {level: WARN}
        server:
          requestLog: {appenders: []}
          applicationConnectors: [{type: http, port: ${APP_PORT}, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: ${ADMIN_PORT}, bindHost: 127.0.0.1}]
        teams:
          ml: {backends: [stub], regions: []}
        backends:
          - {type: bench-stub, id: stub}
        """
        .formatted(databaseUrl, groupCommit, signingKey, hmacKey, issuer);
  }

  private static void createDatabase(String url, String name) {
    try (var c = DriverManager.getConnection(url, "postgres", "");
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE DATABASE " + name + ": " + e.getMessage(), e);
    }
  }

  /** Per client count: each mode's median rate, p50 and p99 over the runs, and their ratio. */
  public static String summary(List<Point> points, List<Integer> clients) {
    var out = new StringBuilder();
    out.append(
        "| clients | off: runs (accepted/s) | off median | off p50 / p99 | on: runs (accepted/s) |"
            + " on median | on p50 / p99 | on/off | errors | load |\n");
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (var c : clients) {
      var off = of(points, c, false);
      var on = of(points, c, true);
      var offRate = LoadDriver.median(off.stream().map(Sample::perSecond).toList());
      var onRate = LoadDriver.median(on.stream().map(Sample::perSecond).toList());
      var loads = new ArrayList<Double>();
      off.forEach(s -> loads.add(s.loadAverage()));
      on.forEach(s -> loads.add(s.loadAverage()));
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %,.0f | %.1f / %.1f ms | %s | %,.0f | %.1f / %.1f ms | %.1f× | %d |"
                  + " %.1f–%.1f |%n",
              c,
              rates(off),
              offRate,
              medianMillis(off, false),
              medianMillis(off, true),
              rates(on),
              onRate,
              medianMillis(on, false),
              medianMillis(on, true),
              onRate / offRate,
              off.stream().mapToLong(Sample::errors).sum()
                  + on.stream().mapToLong(Sample::errors).sum(),
              loads.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
              loads.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
    }
    return out.toString();
  }

  private static List<Sample> of(List<Point> points, int clients, boolean groupCommit) {
    return points.stream()
        .filter(p -> p.groupCommit() == groupCommit && p.sample().clients() == clients)
        .map(Point::sample)
        .toList();
  }

  private static String rates(List<Sample> samples) {
    return String.join(
        ", ",
        samples.stream().map(s -> String.format(Locale.ROOT, "%,.0f", s.perSecond())).toList());
  }

  private static double medianMillis(List<Sample> samples, boolean p99) {
    return LoadDriver.median(
        samples.stream().map(s -> (p99 ? s.p99() : s.p50()).toNanos() / 1e6).toList());
  }

  static Options parse(String[] args) {
    var map = new HashMap<String, String>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      map.put(args[i], args[i + 1]);
    }
    return new Options(
        Arrays.stream(map.getOrDefault("--clients", "1,8,64,256").split(","))
            .map(String::strip)
            .map(Integer::parseInt)
            .toList(),
        Duration.ofSeconds(Long.parseLong(map.getOrDefault("--warmup", "3"))),
        Duration.ofSeconds(Long.parseLong(map.getOrDefault("--seconds", "10"))),
        Integer.parseInt(map.getOrDefault("--runs", "3")),
        Path.of(map.getOrDefault("--pg-bin", "/usr/lib/postgresql/15/bin")),
        Boolean.parseBoolean(map.getOrDefault("--durable", "true")),
        map.containsKey("--jfr") ? Path.of(map.get("--jfr")) : null);
  }
}
