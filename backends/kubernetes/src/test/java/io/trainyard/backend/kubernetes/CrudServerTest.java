package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the backend's integration tests share: a CRUD API server with the Kubeflow CRDs, the fake
 * operator, a clock the test moves, and backends on that server (several stand for restarts).
 */
abstract class CrudServerTest {
  static final String SPEC =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [python, train.py]
      resources: {gpus: 1, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      """;

  @TempDir Path dataDir;
  CrudApiServer cluster;
  MutableClock clock;
  FakeTrainingOperator operator;
  KubernetesBackend backend;
  private final List<KubernetesBackend> opened = new ArrayList<>();

  @BeforeEach
  void startServer() {
    cluster = new CrudApiServer(false, mpiOperatorV2());
    clock = new MutableClock();
    operator = new FakeTrainingOperator(cluster.client(), clock);
    backend = newBackend();
  }

  @AfterEach
  void stopServer() {
    opened.forEach(KubernetesBackend::close);
    cluster.close();
  }

  /** Whether the server serves MPIJobs as the MPI Operator v2 ({@code v2beta1}). */
  boolean mpiOperatorV2() {
    return false;
  }

  /** The block the backends are made from. */
  String configYaml() {
    return TestJobs.AWS_POOLS;
  }

  /** A backend with its own client, as a (re)started gateway has. */
  KubernetesBackend newBackend() {
    var config = TestJobs.config(configYaml());
    var created =
        KubernetesBackend.create(
            "kubernetes",
            config.settings(),
            cluster.newClient(),
            new BackendContext(PriceCatalog.embedded(), dataDir, clock));
    opened.add(created);
    return created;
  }

  BackendJob job(String specYaml) {
    var spec = TestJobs.spec(specYaml);
    var proposals = backend.placements(spec);
    assertThat(proposals.rejections()).isEmpty();
    return TestJobs.job(spec, proposals.placements().get(0));
  }

  /** Submits and waits until the kind's informer watches, so no event is missed. */
  ExternalRef submit(BackendJob job) {
    var ref = backend.submit(job);
    awaitWatching(backend, Attempt.of(ref).kind());
    return ref;
  }

  static void awaitWatching(KubernetesBackend backend, JobKind kind) {
    await(() -> backend.watching(kind), "the " + kind.kind() + " informer watches");
  }

  BackendStatus awaitStatus(ExternalRef ref, Predicate<BackendStatus> wanted, String what) {
    var last = new BackendStatus[1];
    await(
        () -> {
          last[0] = backend.status(ref);
          return wanted.test(last[0]);
        },
        what);
    return last[0];
  }

  BackendStatus awaitPhase(ExternalRef ref, BackendPhase phase) {
    return awaitStatus(ref, s -> s.phase() == phase, "phase " + phase);
  }

  static void await(java.util.function.BooleanSupplier condition, String what) {
    var deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting until " + what, e);
      }
    }
  }
}
