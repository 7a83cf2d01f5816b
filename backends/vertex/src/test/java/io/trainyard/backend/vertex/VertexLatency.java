package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.JobServiceClient;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;

/**
 * Backend-side time per submit and per status refresh against {@link FakeJobService}, beside the
 * bare client call on the same server with the same CustomJob. A submit is a label lookup plus the
 * create (that is how Vertex attempts stay idempotent), so its ratio counts two calls against one.
 * Not a test; run it by hand (see the module README).
 *
 * <p>Arguments: iterations (default 200), warm-up iterations (default 50).
 */
public final class VertexLatency {
  private VertexLatency() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    try (var vertex = new FakeJobService()) {
      var config = TestJobs.localConfig(vertex.endpoint(), "");
      var context =
          new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
      try (var backend = (VertexBackend) new VertexBackendFactory().create(config, context);
          JobServiceClient bare = VertexBackendFactory.client(config)) {
        var spec = TestJobs.spec(TestJobs.FULL_SPEC);
        var placements = new VertexPlacements(config, PriceCatalog.embedded());
        var placement = placements.propose(spec).placements().get(0);
        var mapper = new VertexJobMapper(config, placements);
        for (var round : new String[] {"warm-up", "measured"}) {
          int n = round.equals("warm-up") ? warmUp : iterations;
          var submit = new long[n];
          var bareCreate = new long[n];
          var bareListCreate = new long[n];
          var status = new long[n];
          var bareGet = new long[n];
          for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            var ref = backend.submit(TestJobs.job(spec, placement));
            submit[i] = System.nanoTime() - t0;

            var customJob = mapper.customJob(TestJobs.job(spec, placement), placement);
            t0 = System.nanoTime();
            bare.createCustomJob(config.parent(), customJob);
            bareCreate[i] = System.nanoTime() - t0;

            var job = TestJobs.job(spec, placement);
            bareListCreate[i] = listAndCreate(bare, config, job, mapper.customJob(job, placement));

            t0 = System.nanoTime();
            backend.status(ref);
            status[i] = System.nanoTime() - t0;

            t0 = System.nanoTime();
            bare.getCustomJob(ref.attributes().get(VertexBackend.ATTR_RESOURCE));
            bareGet[i] = System.nanoTime() - t0;
          }
          if (round.equals("measured")) {
            System.out.println(
                "Vertex against the fake JobService, "
                    + n
                    + " iterations after "
                    + warmUp
                    + " warm-up");
            report("submit", submit, "bare CreateCustomJob", bareCreate);
            report("submit", submit, "bare List+CreateCustomJob", bareListCreate);
            report("status", status, "bare GetCustomJob", bareGet);
          }
        }
      }
    }
  }

  /** What an idempotent submit costs done by hand: the display-name lookup, then the create. */
  private static long listAndCreate(
      JobServiceClient bare,
      VertexConfig config,
      io.trainyard.spi.BackendJob job,
      com.google.cloud.aiplatform.v1.CustomJob customJob) {
    var list =
        com.google.cloud.aiplatform.v1.ListCustomJobsRequest.newBuilder()
            .setParent(config.parent())
            .setFilter("display_name=\"" + job.objectName() + "\"")
            .build();
    long t0 = System.nanoTime();
    bare.listCustomJobs(list).iterateAll().forEach(j -> {});
    bare.createCustomJob(config.parent(), customJob);
    return System.nanoTime() - t0;
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
