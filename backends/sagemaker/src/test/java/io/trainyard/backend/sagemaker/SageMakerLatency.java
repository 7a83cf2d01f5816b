package io.trainyard.backend.sagemaker;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.testkit.MotoServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;

/**
 * Backend-side time per submit and per status refresh against moto, beside the bare SDK call on the
 * same server with the same request: what the backend adds (checks, mapping, translation) over the
 * wire call itself. Not a test; run it by hand (see the module README).
 *
 * <p>Arguments: iterations (default 200), warm-up iterations (default 50).
 */
public final class SageMakerLatency {
  private SageMakerLatency() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    try (var moto = MotoServer.start()) {
      var config = TestJobs.localConfig(moto.endpoint(), "");
      var context =
          new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
      try (var backend = (SageMakerBackend) new SageMakerBackendFactory().create(config, context);
          var bare = SageMakerBackendFactory.sageMakerClient(config)) {
        var spec = TestJobs.spec(TestJobs.FULL_SPEC);
        var placement = backend.placements(spec).placements().get(0);
        var mapper = new SageMakerJobMapper(config);
        for (var round : new String[] {"warm-up", "measured"}) {
          int n = round.equals("warm-up") ? warmUp : iterations;
          var submit = new long[n];
          var bareCreate = new long[n];
          var status = new long[n];
          var bareDescribe = new long[n];
          for (int i = 0; i < n; i++) {
            BackendJob job = TestJobs.job(spec, placement);
            long t0 = System.nanoTime();
            var ref = backend.submit(job);
            submit[i] = System.nanoTime() - t0;

            var request = mapper.request(TestJobs.job(spec, placement), placement);
            t0 = System.nanoTime();
            bare.createTrainingJob(request);
            bareCreate[i] = System.nanoTime() - t0;

            t0 = System.nanoTime();
            backend.status(ref);
            status[i] = System.nanoTime() - t0;

            t0 = System.nanoTime();
            bare.describeTrainingJob(r -> r.trainingJobName(ref.name()));
            bareDescribe[i] = System.nanoTime() - t0;
          }
          if (round.equals("measured")) {
            System.out.println(
                "SageMaker against moto, " + n + " iterations after " + warmUp + " warm-up");
            report("submit", submit, "bare CreateTrainingJob", bareCreate);
            report("status", status, "bare DescribeTrainingJob", bareDescribe);
          }
        }
      }
    }
  }

  static void report(String ours, long[] a, String theirs, long[] b) {
    System.out.printf(
        Locale.ROOT,
        "%-8s median %.2f ms  p90 %.2f ms | %-26s median %.2f ms  p90 %.2f ms | ratio %.2f%n",
        ours,
        percentile(a, 50),
        percentile(a, 90),
        theirs,
        percentile(b, 50),
        percentile(b, 90),
        percentile(a, 50) / percentile(b, 50));
  }

  static double percentile(long[] nanos, int p) {
    var sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e6;
  }
}
