package io.trainyard.bench.load;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Issue 19's first ratio: an authenticated {@code GET /v1/jobs/{id}} against the admin {@code GET
 * /ping} of the same gateway, one after the other in each round (ping, job, ping), with the same
 * bearer token on every read (what a dashboard or CLI does) over keep-alive connections. Prints
 * each round's rates and the median ratio of the job read to the mean of its two pings.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.trainyard.bench.load.AuthReadScenario [clients] [seconds] [rounds]
 * </pre>
 *
 * The gateway is the shipped jar in dev mode (H2 file, the dev issuer's ES256 tokens, the local
 * backend for the one job read).
 */
public final class AuthReadScenario {
  static final String DEV_CONFIG =
      """
      dataDir: ./data
      auth: {mode: dev}
      logging: {level: WARN}
      server:
        applicationConnectors: [{type: http, port: ${APP_PORT}, bindHost: 127.0.0.1}]
        adminConnectors: [{type: http, port: ${ADMIN_PORT}, bindHost: 127.0.0.1}]
      """;

  static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: bench-read}
      spec:
        framework: pytorch
        image: python:3.11
        command: [python3, -c, "print(1)"]
        replicas: {master: 1}
        resources: {cpus: 1, memory: 1Gi}
      """;

  /** One round's figures. */
  public record Round(Sample pingBefore, Sample job, Sample pingAfter) {
    public double ratio() {
      return job.perSecond() / ((pingBefore.perSecond() + pingAfter.perSecond()) / 2);
    }
  }

  /**
   * {@code -Dbench.newConnections=true}: every request on a connection of its own ({@code
   * Connection: close}), as {@code ab} without {@code -k} measured issue 19's baseline; otherwise
   * keep-alive connections, as a dashboard or CLI keeps them.
   */
  static final boolean NEW_CONNECTIONS = Boolean.getBoolean("bench.newConnections");

  private AuthReadScenario() {}

  public static void main(String[] args) {
    if (NEW_CONNECTIONS) {
      // Before any HttpClient class reads it: lets the requests carry "Connection: close".
      System.setProperty("jdk.httpclient.allowRestrictedHeaders", "connection");
    }
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    var seconds = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 5);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    print(run(clients, Duration.ofSeconds(2), seconds, rounds));
  }

  /** Starts a gateway, makes one job, and measures {@code rounds} rounds. */
  public static List<Round> run(int clients, Duration warmUp, Duration measure, int rounds) {
    return run(
        DEV_CONFIG,
        gateway -> gateway.devToken("bench", "demo", "trainer"),
        clients,
        warmUp,
        measure,
        rounds);
  }

  /**
   * The same rounds on a gateway of another configuration, e.g. {@code auth: {mode: oidc, ...}}
   * against a running Keycloak (the RS256 case; see {@code AuthReadKeycloakIT}).
   *
   * @param configYaml the gateway's configuration ({@code ${APP_PORT}}, {@code ${ADMIN_PORT}})
   * @param token the bearer token of a caller who may submit and read a job there
   */
  public static List<Round> run(
      String configYaml,
      Function<GatewayProcess, String> token,
      int clients,
      Duration warmUp,
      Duration measure,
      int rounds) {
    try (var gateway =
        GatewayProcess.start(configYaml, List.of(), List.of(), Map.of(), Duration.ofMinutes(2))) {
      var bearer = token.apply(gateway);
      var id = Requests.submit(gateway, bearer, JOB);
      var driver = LoadDriver.http11().metering(gateway.pid());
      var ping = request(gateway.admin("/ping")).GET().build();
      var read =
          request(gateway.app("/v1/jobs/" + id))
              .header("Authorization", "Bearer " + bearer)
              .GET()
              .build();
      var out = new ArrayList<Round>();
      for (int r = 0; r < rounds; r++) {
        var before = driver.run("GET /ping", clients, warmUp, measure, n -> ping, s -> s == 200);
        var job =
            driver.run("GET /v1/jobs/{id}", clients, warmUp, measure, n -> read, s -> s == 200);
        var after = driver.run("GET /ping", clients, warmUp, measure, n -> ping, s -> s == 200);
        out.add(new Round(before, job, after));
      }
      return out;
    }
  }

  private static HttpRequest.Builder request(URI uri) {
    var builder = HttpRequest.newBuilder(uri);
    return NEW_CONNECTIONS ? builder.header("Connection", "close") : builder;
  }

  /** The figures as docs/benchmarks.md shows them, and the median ratio. */
  public static void print(List<Round> result) {
    System.out.println(Sample.header());
    for (var round : result) {
      System.out.println(round.pingBefore().row());
      System.out.println(round.job().row());
      System.out.println(round.pingAfter().row());
    }
    System.out.printf(
        Locale.ROOT,
        "median ratio GET /v1/jobs/{id} / GET /ping: %.2f (rounds: %s)%n",
        LoadDriver.median(result.stream().map(Round::ratio).toList()),
        result.stream().map(r -> String.format(Locale.ROOT, "%.2f", r.ratio())).toList());
  }
}
