package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.ExternalRef;
import io.trainyard.testkit.MutableClock;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What following many running jobs costs the API server and the gateway's heap: {@code jobs}
 * running PyTorchJobs on the CRUD API server, a fresh backend that reads every job's status each
 * {@code resync} (the gateway reconciler's default is 2s) for {@code seconds}, while the fake
 * operator changes a few jobs' status every second. Counts the backend's own requests at the server
 * (its client names itself) and the heap the backend holds after a full GC. Prints a small report;
 * not a test.
 *
 * <p>Run: {@code mvn -B -pl backends/kubernetes test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test} then, in {@code backends/kubernetes},
 * {@code java -cp target/test-classes:target/classes:$(cat target/cp.txt)
 * -Djava.util.logging.config.file=target/test-classes/logging.properties
 * io.trainyard.backend.kubernetes.FollowCostMain [jobs=1000] [seconds=60] [resyncMillis=2000]}
 */
public final class FollowCostMain {
  private static final String AGENT = "trainyard-gateway";

  private FollowCostMain() {}

  public static void main(String[] args) throws Exception {
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    int resyncMillis = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    var dataDir = Files.createTempDirectory("follow-cost");
    try (var cluster = new CrudApiServer()) {
      var clock = new MutableClock();
      var operator = new FakeTrainingOperator(cluster.client(), clock);
      var refs = runningJobs(cluster, operator, jobs);
      // The server records every request with its body: drop the set-up's before measuring.
      cluster.drainRequests();
      var baseline = usedHeapAfterGc();

      var config = TestJobs.config(TestJobs.AWS_POOLS);
      var backend =
          KubernetesBackend.create(
              "kubernetes",
              config.settings(),
              cluster.newClient(AGENT),
              new BackendContext(PriceCatalog.embedded(), dataDir, clock));
      var events = new AtomicInteger();
      backend.events(ref -> events.incrementAndGet());

      var started = System.nanoTime();
      var counts = follow(backend, operator, refs, seconds, resyncMillis);
      var statusReads = counts[0];
      var changed = counts[1];
      var elapsed = Duration.ofNanos(System.nanoTime() - started);
      var requests = byKind(cluster);
      var withBackend = usedHeapAfterGc();
      var cached = backend.cachedJobs();
      backend.close();
      var afterClose = usedHeapAfterGc();

      System.out.printf(
          "%d running jobs followed for %ds (status read %d times, every %dms):%n",
          jobs, elapsed.toSeconds(), statusReads, resyncMillis);
      System.out.printf(
          "  backend requests at the API server: %d %s%n",
          requests.values().stream().mapToInt(Integer::intValue).sum(), requests);
      System.out.printf("  (polling each job at each read would have been %d GETs)%n", statusReads);
      System.out.printf(
          "  status changes by the operator: %d; change events pushed: %d%n",
          changed, events.get());
      System.out.printf(
          "  heap after GC, with the backend (%d jobs cached) minus before it: %.1f MiB (%.1f KiB"
              + " per job); minus after closing it: %.1f MiB%n",
          cached,
          (withBackend - baseline) / 1048576.0,
          (withBackend - baseline) / 1024.0 / jobs,
          (withBackend - afterClose) / 1048576.0);
    }
  }

  /**
   * Reads every job's status each {@code resyncMillis} for {@code seconds}, while the operator
   * marks five jobs restarting each second.
   *
   * @return {status reads, status changes}
   */
  private static long[] follow(
      KubernetesBackend backend,
      FakeTrainingOperator operator,
      List<ExternalRef> refs,
      int seconds,
      int resyncMillis)
      throws InterruptedException {
    var statusReads = 0L;
    var changed = 0L;
    var started = System.nanoTime();
    var end = started + Duration.ofSeconds(seconds).toNanos();
    var nextChange = started;
    while (System.nanoTime() < end) {
      for (var ref : refs) {
        backend.status(ref);
        statusReads++;
      }
      while (System.nanoTime() >= nextChange) {
        for (int i = 0; i < 5; i++) {
          var at = Attempt.of(refs.get(ThreadLocalRandom.current().nextInt(refs.size())));
          operator.restarting(at, "Worker", 1);
          changed++;
        }
        nextChange += Duration.ofSeconds(1).toNanos();
      }
      Thread.sleep(resyncMillis);
    }
    return new long[] {statusReads, changed};
  }

  private static List<ExternalRef> runningJobs(
      CrudApiServer cluster, FakeTrainingOperator operator, int jobs) {
    var refs = new ArrayList<ExternalRef>();
    var renderer = new KubeflowJobRenderer(TestJobs.config(TestJobs.AWS_POOLS).settings());
    var spec = TestJobs.spec(CrudServerTest.SPEC);
    var placement =
        new KubernetesPlacements(
                TestJobs.config(TestJobs.AWS_POOLS).settings(), PriceCatalog.embedded())
            .propose(spec)
            .placements()
            .get(0);
    var api =
        cluster.client().genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB));
    for (int i = 0; i < jobs; i++) {
      var job = TestJobs.job(spec, placement);
      GenericKubernetesResource object = renderer.desired(job, placement);
      api.inNamespace("nlp-jobs").resource(object).create();
      var at = new Attempt(JobKind.PYTORCH_JOB, "nlp-jobs", job.objectName());
      operator.created(at);
      operator.running(at, Map.of("Master", 1, "Worker", 2));
      refs.add(at.ref("k8s-use1"));
    }
    return refs;
  }

  /** The backend's requests by kind (list, watch, get, other); drains the server's record. */
  private static Map<String, Integer> byKind(CrudApiServer cluster) throws InterruptedException {
    var counts = new TreeMap<String, Integer>();
    for (var r : cluster.drainRequests()) {
      var agent = r.getHeader("User-Agent");
      if (agent == null || !agent.startsWith(AGENT)) {
        continue;
      }
      var path = r.getPath();
      String kind;
      if (path.contains("watch=true")) {
        kind = "watch";
      } else if (r.getMethod().equals("GET") && path.contains("labelSelector")) {
        kind = "list";
      } else if (r.getMethod().equals("GET")) {
        kind = "get";
      } else {
        kind = r.getMethod().toLowerCase();
      }
      counts.merge(kind, 1, Integer::sum);
    }
    return counts;
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    var memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
