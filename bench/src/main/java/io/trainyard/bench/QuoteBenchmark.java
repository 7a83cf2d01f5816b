package io.trainyard.bench;

import io.trainyard.cost.BackendQuote;
import io.trainyard.cost.PriceRow;
import io.trainyard.cost.PricingPlugins;
import io.trainyard.cost.Router;
import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.spec.TrainingJob;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Quote latency over the full embedded catalog with 10 configured backends, beside the cost of
 * parsing the same spec. Each backend proposes one placement per matching catalog row of its
 * service and region (so the router prices every row once), as a cluster with many node pools or a
 * managed service with many instance types would.
 *
 * <p>The spec names a checkpoint: it runs 3 h, past {@code placement.spotNeedsCheckpointAfter}'s
 * default 1 h, so without one every spot placement would be refused by the checkpoint rule before
 * it is priced, and the benchmark would compare on-demand offers only. With it, the spot offers are
 * priced, given their expected re-run time and compared again.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar QuoteBenchmark -bm sample -tu us}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QuoteBenchmark {
  private static final String SPEC =
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

  private final SpecReader reader = new SpecReader(1 << 20);
  private final byte[] spec = SPEC.getBytes(StandardCharsets.UTF_8);
  private Router router;
  private TrainingJob job;
  private List<BackendQuote> quotes;

  @Setup
  public void setUp() {
    var pricing = PricingPlugins.discover();
    var catalog = pricing.catalog();
    router = new Router(pricing.priceBook(new BigDecimal("20")), BigDecimal.ONE);
    job = reader.read(spec).job();
    quotes = new ArrayList<>();
    var regions =
        List.of(
            List.of("aws", "ec2", "us-east-1"),
            List.of("aws", "ec2", "us-west-2"),
            List.of("aws", "ec2", "eu-west-1"),
            List.of("aws", "ec2", "eu-central-1"),
            List.of("aws", "sagemaker", "us-east-1"),
            List.of("gcp", "gce", "us-central1"),
            List.of("gcp", "gce", "us-east4"),
            List.of("gcp", "gce", "europe-west4"),
            List.of("gcp", "vertex", "us-central1"),
            List.of("aws", "ec2", "us-east-2"));
    for (int i = 0; i < regions.size(); i++) {
      var r = regions.get(i);
      var id = "backend-" + i;
      var placements = new ArrayList<Placement>();
      for (PriceRow row : catalog.instances(r.get(0), r.get(1), r.get(2))) {
        for (boolean spot : new boolean[] {false, true}) {
          placements.add(
              new Placement(
                  id,
                  r.get(0),
                  r.get(1),
                  r.get(2),
                  spot,
                  List.of(
                      new PlacementLine(
                          List.of("master", "worker"),
                          row.instanceType(),
                          4,
                          row.gpuType(),
                          row.gpuCount())),
                  null,
                  new BigDecimal("0.0125"),
                  null,
                  List.of()));
        }
      }
      quotes.add(
          new BackendQuote(
              id,
              r.get(1),
              r.get(2),
              i % 2 == 0,
              BigDecimal.ZERO,
              new Proposals(placements, List.of()),
              null));
    }
  }

  @Benchmark
  public TrainingJob parseSpec() {
    return reader.read(spec).job();
  }

  @Benchmark
  public RoutingDecision routeTenBackends() {
    return router.route(job.spec(), quotes);
  }

  @Benchmark
  public RoutingDecision parseAndRoute() {
    return router.route(reader.read(spec).job().spec(), quotes);
  }
}
