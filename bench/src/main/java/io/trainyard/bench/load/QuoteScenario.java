package io.trainyard.bench.load;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Issue 19's quote ratio: {@code POST /v1/quotes} routed over 10 backends against an authenticated
 * {@code GET /v1/jobs/{id}} of the same gateway, one after the other in each round (read, quote,
 * read), same bearer token, keep-alive connections. Prints each round's rates and the median ratio
 * of the quote to the mean of its two reads.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.trainyard.bench.load.QuoteScenario [clients] [seconds] [rounds]
 * </pre>
 *
 * The gateway is the shipped jar in dev mode with ten {@code sagemaker} blocks (hipaa, discount and
 * region varied) that propose one placement per fitting instance type of the embedded catalog, on
 * demand and spot, each priced by the router from the full catalog; no network: their start-up
 * health probe reaches a loopback stub ({@link StubSageMaker}), and a quote never calls a backend.
 * The spec is {@code QuoteBenchmark}'s (4 GPU replicas, a checkpoint, spot allowed).
 */
public final class QuoteScenario {
  static final int BACKENDS = 10;
  private static final Pattern CHOSEN = Pattern.compile("\"chosen\"\\s*:\\s*\"sm-\\d+\"");

  static final String SPEC =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: bert-imdb, labels: {project: sentiment}}
      spec:
        framework: pytorch
        image: registry.example.com/bert-finetune:1.4
        command: [python, train.py]
        args: [--epochs, "1"]
        env: {HF_DATASETS_OFFLINE: "1"}
        resources: {gpus: 1, gpuType: nvidia-a10g, cpus: 4, memory: 16Gi}
        replicas: {master: 1, worker: 3}
        estimatedHours: 3
        maxRuntime: 6h
        checkpoint: {uri: s3://ml-ckpt/bert-imdb/}
        placement: {policy: cheapest, spot: allowed, maxHourlyUsd: 400}
      """;

  /** One round's figures. */
  public record Round(Sample readBefore, Sample quote, Sample readAfter) {
    public double ratio() {
      return quote.perSecond() / ((readBefore.perSecond() + readAfter.perSecond()) / 2);
    }
  }

  private QuoteScenario() {}

  /** The gateway's configuration: dev mode and {@link #BACKENDS} SageMaker blocks. */
  static String config(String sageMakerEndpoint) {
    var blocks =
        IntStream.range(0, BACKENDS)
            .mapToObj(
                i ->
                    ("  - {type: sagemaker, id: sm-%d, region: us-east-1, hipaaEligible: %s,"
                            + " discountPct: %d, roleArn: \"arn:aws:iam::123456789012:role/ty\","
                            + " outputPath: \"s3://ml-out/trainyard/\", endpoint: \"%s\","
                            + " accessKeyId: test, secretAccessKey: test, maxAttempts: 1}")
                        .formatted(i, i % 2 == 0, i, sageMakerEndpoint))
            .collect(Collectors.joining("\n"));
    return AuthReadScenario.DEV_CONFIG + "backends:\n" + blocks + "\n";
  }

  public static void main(String[] args) {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    var seconds = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 5);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    var result = run(clients, Duration.ofSeconds(2), seconds, rounds);
    System.out.println(Sample.header());
    for (var round : result) {
      System.out.println(round.readBefore().row());
      System.out.println(round.quote().row());
      System.out.println(round.readAfter().row());
    }
    System.out.printf(
        Locale.ROOT,
        "median ratio POST /v1/quotes / GET /v1/jobs/{id}: %.2f (rounds: %s)%n",
        LoadDriver.median(result.stream().map(Round::ratio).toList()),
        result.stream().map(r -> String.format(Locale.ROOT, "%.2f", r.ratio())).toList());
  }

  /** Starts the stub and a gateway, makes one job, and measures {@code rounds} rounds. */
  public static List<Round> run(int clients, Duration warmUp, Duration measure, int rounds) {
    try (var sageMaker = StubSageMaker.start();
        var gateway =
            GatewayProcess.start(
                config(sageMaker.endpoint()),
                List.of(),
                List.of(),
                Map.of(),
                Duration.ofMinutes(2))) {
      var token = gateway.devToken("bench", "demo", "trainer");
      var id = Requests.submit(gateway, token, AuthReadScenario.JOB);
      var driver = LoadDriver.http11().metering(gateway.pid());
      var read =
          HttpRequest.newBuilder(gateway.app("/v1/jobs/" + id))
              .header("Authorization", "Bearer " + token)
              .GET()
              .build();
      var quote =
          HttpRequest.newBuilder(gateway.app("/v1/quotes"))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/yaml")
              .POST(HttpRequest.BodyPublishers.ofString(SPEC))
              .build();
      var first = Requests.send(quote);
      if (first.statusCode() != 200 || !CHOSEN.matcher(first.body()).find()) {
        throw new IllegalStateException(
            "the quote chose no SageMaker backend (" + first.statusCode() + "): " + first.body());
      }
      var out = new ArrayList<Round>();
      for (int r = 0; r < rounds; r++) {
        var before =
            driver.run("GET /v1/jobs/{id}", clients, warmUp, measure, n -> read, s -> s == 200);
        var quotes =
            driver.run("POST /v1/quotes", clients, warmUp, measure, n -> quote, s -> s == 200);
        var after =
            driver.run("GET /v1/jobs/{id}", clients, warmUp, measure, n -> read, s -> s == 200);
        out.add(new Round(before, quotes, after));
      }
      return out;
    }
  }
}
