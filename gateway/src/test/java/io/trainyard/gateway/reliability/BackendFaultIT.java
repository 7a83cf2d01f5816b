package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.backend.sagemaker.SageMakerStub;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.cluster.FaultProxy;
import io.trainyard.gateway.testing.cluster.FaultProxy.Mode;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backends that fail the ways real ones do, played by a {@link FaultProxy} in front of fabric8's
 * API server ({@code k8s-a}) and of the SageMaker stub ({@code sm}), while a third backend ({@code
 * k8s-b}, reached directly) stays healthy. For each fault — 5xx, reset connections, requests that
 * hang, refusals for capacity — jobs routed to the failing backend must fail over or wait within
 * two reconcile periods (and go on once the fault clears), and jobs pinned to the healthy backend
 * must keep the pace they had before the fault.
 *
 * <p>Sizes: {@code -Dtrainyard.fault.jobs} per fault and per path (2 here, 10 under {@code
 * -Pstress}).
 */
class BackendFaultIT {
  /** The gateway's resync interval: the "reconcile period" of the figures. */
  private static final Duration PERIOD = Duration.ofSeconds(1);

  private static PostgresServer postgres;
  private static TestIssuer issuer;
  private static KubernetesTarget kubernetes;
  private static SageMakerStub sagemaker;
  private static FaultProxy kubernetesProxy;
  private static FaultProxy sagemakerProxy;

  @BeforeAll
  static void startParts() throws Exception {
    postgres = PostgresServer.startDurable();
    issuer = TestIssuer.start();
    kubernetes = new KubernetesTarget();
    sagemaker = new SageMakerStub();
    kubernetesProxy = new FaultProxy(kubernetes.server().port(), FaultProxy.KUBERNETES_QUOTA);
    sagemakerProxy =
        new FaultProxy(URI.create(sagemaker.endpoint()).getPort(), FaultProxy.AWS_RESOURCE_LIMIT);
  }

  @AfterAll
  static void stopParts() {
    kubernetesProxy.close();
    sagemakerProxy.close();
    sagemaker.close();
    kubernetes.close();
    issuer.close();
    postgres.close();
  }

  @Test
  void failingBackendsFailOverOrWaitAndDoNotSlowTheHealthyOne(@TempDir Path dir) throws Exception {
    int perFault = ReliabilityFigures.size("trainyard.fault.jobs", 2);
    var db = postgres.createDatabase();
    var backends =
        kubernetes.backendYaml("k8s-a", dir, kubernetesProxy.url())
            + kubernetes
                .backendYaml("k8s-b", dir, kubernetes.url())
                .replace("m5.2xlarge", "m5.4xlarge")
            + """
            - type: sagemaker
              id: sm
              region: us-east-1
              roleArn: arn:aws:iam::123456789012:role/trainyard
              outputPath: s3://ml-out/trainyard/
              endpoint: %s
              accessKeyId: test
              secretAccessKey: test
            """
                .formatted(sagemakerProxy.url());
    try (var cluster =
        GatewayCluster.builder(db.url(), db.user(), issuer)
            .dir(dir)
            .nodes(1)
            .resyncInterval(PERIOD.toMillis() + "ms")
            // A submit that hangs is left after one period, so its job moves on within two.
            .reconciler("submitTimeout: " + PERIOD.toMillis() + "ms")
            // A backend marked down by a failed submit is offered again once a probe passes.
            .extraYaml("backendHealth: {checkEvery: 1s, timeout: 2s}")
            .teams("ml: {backends: [k8s-a, k8s-b, sm], namespaces: {k8s-a: a-jobs, k8s-b: b-jobs}}")
            .backends(backends)
            .start()) {
      var jobs = new Jobs(cluster.client(0), issuer.mint("mia", List.of("ml"), List.of("trainer")));
      var baseline = jobs.controlPace(perFault);
      var figures = new ReliabilityFigures("backend-faults").put("healthyBaselineMaxMs", baseline);
      var failures = new ArrayList<String>();
      for (var proxy : List.of(kubernetesProxy, sagemakerProxy)) {
        var target = proxy == kubernetesProxy ? "k8s-a" : "sm";
        for (var mode : List.of(Mode.CAPACITY, Mode.ERROR, Mode.RESET, Mode.HANG)) {
          var label = target + "-" + mode.name().toLowerCase(java.util.Locale.ROOT);
          proxy.mode(mode);
          var faulted = jobs.submit(label, perFault, "[" + target + ", k8s-b]");
          var pace = jobs.controlPace(perFault);
          // Refused for capacity, answered with 5xx / reset connections (the backend then fails
          // its health probe too) or not answered within the submit timeout, jobs must move on
          // at once.
          var watch = jobs.watch(faulted, Duration.ofSeconds(30), true);
          proxy.mode(Mode.PASS);
          var resumedMs = jobs.awaitAllSubmitted(faulted, Duration.ofMinutes(3));
          // The next fault must meet the backend healthy, as the first one did.
          jobs.awaitHealthy(target, Duration.ofSeconds(30));
          figures
              .put(label + ".healthyMaxMs", pace)
              .put(label + ".failedOver", watch.onBackend("k8s-b"))
              .put(label + ".queued", watch.queued)
              .put(label + ".maxStuckMs", watch.maxStuckMs)
              .put(label + ".submittedMsAfterClear", resumedMs);
          if (pace > baseline + 2 * PERIOD.toMillis() + 3_000) {
            failures.add(label + ": the healthy backend slowed to " + pace + " ms");
          }
          if (watch.onBackend("k8s-b") + watch.queued != perFault) {
            failures.add(label + ": refused but not failed over or queued");
          }
          if (watch.maxStuckMs > 2 * PERIOD.toMillis() + 3_000) {
            failures.add(label + ": a job stayed PENDING " + watch.maxStuckMs + " ms");
          }
          if (!watch.illegal.isEmpty()) {
            failures.add(label + ": " + watch.illegal);
          }
        }
      }
      figures.publish();
      assertThat(failures).isEmpty();
    }
  }

  /** Submits and follows jobs through the API, as a user's tool does. */
  private static final class Jobs {
    private final GatewayClient client;
    private final String token;
    private final AtomicInteger names = new AtomicInteger();

    Jobs(GatewayClient client, String token) {
      this.client = client;
      this.token = token;
    }

    List<String> submit(String label, int count, String backends) {
      var ids = new ArrayList<String>();
      for (int i = 0; i < count; i++) {
        var spec =
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: %s-%d}
            spec:
              framework: pytorch
              image: registry.example.com/train:1
              command: [python, train.py]
              resources: {cpus: 1, memory: 2Gi}
              replicas: {master: 1}
              placement: {backends: %s}
            """
                .formatted(label, names.incrementAndGet(), backends);
        var answer = client.post("/v1/jobs", token, "application/yaml", spec);
        assertThat(answer.status()).as(answer.body()).isIn(201);
        ids.add(answer.json().get("id").asText());
      }
      return ids;
    }

    /** Submits jobs pinned to the healthy backend; the slowest one's submit-to-SUBMITTED time. */
    long controlPace(int count) throws InterruptedException {
      long start = System.nanoTime();
      var ids = submit("healthy", count, "[k8s-b]");
      var pending = new ArrayList<>(ids);
      long slowest = 0;
      var deadline = start + Duration.ofMinutes(5).toNanos();
      while (!pending.isEmpty() && System.nanoTime() < deadline) {
        for (var it = pending.iterator(); it.hasNext(); ) {
          var job = get(it.next());
          if (job.path("state").asText().equals("SUBMITTED")) {
            slowest = (System.nanoTime() - start) / 1_000_000;
            it.remove();
          }
        }
        Thread.sleep(50);
      }
      assertThat(pending).as("healthy jobs not submitted within 5 minutes").isEmpty();
      return slowest;
    }

    /**
     * Follows jobs for {@code window} (or, {@code untilSettled}, until each has failed over or is
     * queued), noting the longest any stayed PENDING without a change.
     */
    Watch watch(List<String> ids, Duration window, boolean untilSettled)
        throws InterruptedException {
      var watch = new Watch();
      var last = new HashMap<String, String>();
      var since = new HashMap<String, Long>();
      var deadline = System.nanoTime() + window.toNanos();
      while (System.nanoTime() < deadline) {
        for (var id : ids) {
          var job = get(id);
          var state = job.path("state").asText();
          var where = state + "@" + job.path("backend").asText() + "#" + job.path("attempt");
          long now = System.nanoTime();
          if (!where.equals(last.get(id))) {
            last.put(id, where);
            since.put(id, now);
          } else if (state.equals("PENDING")) {
            // Waiting for a backend to take it: SUBMITTED waits for the backend to start it,
            // QUEUED for capacity, and neither is stuck on a failing backend.
            watch.maxStuckMs = Math.max(watch.maxStuckMs, (now - since.get(id)) / 1_000_000);
          }
          if (state.equals("FAILED")) {
            watch.illegal.add(id + " FAILED: " + job.path("reason").asText());
          }
        }
        if (untilSettled
            && last.values().stream()
                .allMatch(w -> w.startsWith("QUEUED@") || w.startsWith("SUBMITTED@k8s-b"))) {
          break;
        }
        Thread.sleep(250);
      }
      watch.final_.putAll(last);
      watch.queued = (int) last.values().stream().filter(w -> w.startsWith("QUEUED@")).count();
      return watch;
    }

    /** Waits until every job is SUBMITTED somewhere; how long that took. */
    long awaitAllSubmitted(List<String> ids, Duration timeout) throws InterruptedException {
      long start = System.nanoTime();
      var pending = new ArrayList<>(ids);
      while (!pending.isEmpty()) {
        if (System.nanoTime() - start > timeout.toNanos()) {
          var states = pending.stream().map(id -> id + "=" + get(id).path("state")).toList();
          throw new AssertionError("not SUBMITTED after the fault cleared: " + states);
        }
        pending.removeIf(id -> get(id).path("state").asText().equals("SUBMITTED"));
        Thread.sleep(100);
      }
      return (System.nanoTime() - start) / 1_000_000;
    }

    void awaitHealthy(String backend, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        for (var b : client.get("/v1/backends", token).json().path("backends")) {
          if (b.path("id").asText().equals(backend) && b.path("healthy").asBoolean()) {
            return;
          }
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(backend + " not healthy again within " + timeout);
        }
        Thread.sleep(200);
      }
    }

    private JsonNode get(String id) {
      return client.get("/v1/jobs/" + id, token).json();
    }
  }

  /** What following a set of jobs for a while saw. */
  private static final class Watch {
    final Map<String, String> final_ = new HashMap<>();
    final List<String> illegal = new ArrayList<>();
    long maxStuckMs;
    int queued;

    int onBackend(String backend) {
      return (int)
          final_.values().stream().filter(w -> w.startsWith("SUBMITTED@" + backend)).count();
    }
  }
}
