package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.trainyard.cost.BackendQuote;
import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.Router;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * On the fabric8 API server: pods waiting for the spot pool's nodes change what {@code fastest}
 * picks. Without them the spot offer wins (no one waits anywhere, and it is cheaper); with three
 * unscheduled pods pinned to the spot pool, the on-demand pool, with none waiting, starts sooner.
 * Running pods, and pending pods already bound to a node, wait for nothing.
 *
 * <p>The server's answer to the field-selected pod list is set from its own store, since the CRUD
 * mode does not filter by {@code status.phase}.
 */
class PendingPodsIT extends CrudServerTest {
  private static final String GPU_JOB =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      resources: {gpus: 4, gpuType: nvidia-a10g, cpus: 16, memory: 64Gi}
      replicas: {master: 1}
      placement: {policy: fastest, spot: allowed}
      """;

  @Override
  String configYaml() {
    return TestJobs.AWS_DEFAULT_RESERVE;
  }

  @Test
  void pendingPodsOnTheSpotPoolMakeFastestPickTheOnDemandPool() {
    var router = new Router(new CatalogPriceBook(PriceCatalog.embedded()), BigDecimal.ONE);
    var spec = TestJobs.spec(GPU_JOB);

    var before = router.route(spec, java.util.List.of(quote(spec)));
    assertThat(before.offers().get(0).placement().lines().get(0).pool()).isEqualTo("a10g-spot");
    assertThat(before.offers().get(0).notes())
        .anySatisfy(n -> assertThat(n).startsWith("start: 0 pods waiting ahead (Pending pods"));

    pod("other-team", "spot-1", "Pending", null, Map.of("pool", "a10g-spot"));
    pod("other-team", "spot-2", "Pending", null, Map.of("pool", "a10g-spot"));
    pod("nlp-jobs", "spot-3", "Pending", null, Map.of("pool", "a10g-spot"));
    // Not waiting for a node: running, or bound and pulling its image.
    pod("other-team", "running", "Running", "ip-10-0-0-1", Map.of("pool", "a10g"));
    pod("other-team", "bound", "Pending", "ip-10-0-0-2", Map.of("pool", "a10g"));

    servePendingPodsByFieldSelector();
    clock.advance(PendingPods.SERVED_FOR); // the list before is no longer served
    var after = router.route(spec, java.util.List.of(quote(spec)));
    var chosen = after.offers().get(0);
    assertThat(chosen.placement().lines().get(0).pool()).isEqualTo("a10g");
    assertThat(chosen.spot()).isFalse();
    assertThat(after.choice()).contains("0 pods waiting ahead");
    var spot = after.offers().stream().filter(c -> c.spot()).findFirst().orElseThrow();
    assertThat(spot.placement().waitingAhead().count()).isEqualTo(3);
    assertThat(spot.notes())
        .anySatisfy(n -> assertThat(n).startsWith("start: 3 pods waiting ahead (Pending pods"));
  }

  @Test
  void aRefusedListIsUnknownAndNotAskedAgainForAWhile() {
    var spec = TestJobs.spec(GPU_JOB);
    // The base manifests bind the backend's role per team namespace: a list across namespaces is
    // refused unless deploy/examples/pending-pods-rbac.yaml grants it.
    cluster
        .expect()
        .get()
        .withPath("/api/v1/pods?fieldSelector=status.phase%3DPending")
        .andReturn(403, CrudApiServer.status(403, "Forbidden", "pods is forbidden"))
        .once();
    var first = backend.placements(spec).placements().get(0).waitingAhead();
    assertThat(first.known()).isFalse();
    assertThat(first.describe()).contains("may not list pods in all namespaces");

    // The server would now answer (an empty list), but the refusal still stands: not asked.
    var second = backend.placements(spec).placements().get(0).waitingAhead();
    assertThat(second.known()).isFalse();

    clock.advance(PendingPods.FORBIDDEN_FOR.plusSeconds(1));
    var later = backend.placements(spec).placements().get(0).waitingAhead();
    assertThat(later.known()).isTrue();
    assertThat(later.count()).isZero();
  }

  @Test
  void oneListAnswersTheQuotesOfTheNextTwoSeconds() throws InterruptedException {
    var spec = TestJobs.spec(GPU_JOB);
    backend.placements(spec);
    cluster.drainRequests();
    for (int i = 0; i < 5; i++) {
      backend.placements(spec);
    }
    assertThat(podLists()).as("within MAX_AGE of the first").isZero();

    pod("other-team", "spot-1", "Pending", null, Map.of("pool", "a10g-spot"));
    servePendingPodsByFieldSelector();
    clock.advance(PendingPods.MAX_AGE);
    // This quote still has the last list; it starts the next one, which the quotes after see.
    assertThat(spotAhead(spec)).isZero();
    await(() -> spotAhead(spec) == 1, "the list taken in the background answers");
    assertThat(podLists()).isEqualTo(1);
  }

  @Test
  void aStaleListAnswersWhileOneNewListIsTakenInTheBackground() throws Exception {
    var refresher = Executors.newSingleThreadExecutor();
    var client = cluster.newClient();
    var pending = new PendingPods(new KubeflowJobApi(client), clock, "k8s", refresher);
    try {
      assertThat(pending.read().selectors()).isEmpty();
      cluster.drainRequests();
      pod("other-team", "spot-1", "Pending", null, Map.of("pool", "a10g-spot"));
      servePendingPodsByFieldSelector();
      var busy = new CountDownLatch(1);
      refresher.execute(() -> awaitQuietly(busy)); // the background list queues behind this
      clock.advance(PendingPods.MAX_AGE);
      for (int i = 0; i < 5; i++) {
        assertThat(pending.read().selectors())
            .as("the last list, while the next one waits")
            .isEmpty();
        assertThat(pending.readsFromMemory()).isTrue();
      }
      assertThat(podLists()).isZero();

      busy.countDown();
      await(() -> pending.read().selectors().size() == 1, "the background list is served");
      assertThat(podLists()).as("one list for the five stale reads").isEqualTo(1);
    } finally {
      pending.close();
      client.close();
    }
  }

  @Test
  void theFirstReadWaitsForTheFirstListAndSoDoesOneAfterAQuietSpell() throws Exception {
    var refresher = Executors.newSingleThreadExecutor();
    var busy = new CountDownLatch(1);
    refresher.execute(() -> awaitQuietly(busy)); // nothing gets listed in the background
    var client = cluster.newClient();
    var pending = new PendingPods(new KubeflowJobApi(client), clock, "k8s", refresher);
    try {
      pod("other-team", "spot-1", "Pending", null, Map.of("pool", "a10g-spot"));
      servePendingPodsByFieldSelector();
      assertThat(pending.readsFromMemory()).as("no list yet").isFalse();
      assertThat(pending.read().selectors()).hasSize(1);
      assertThat(pending.readsFromMemory()).isTrue();

      // No quote for SERVED_FOR: what waited then is not shown as waiting now.
      clock.advance(PendingPods.SERVED_FOR.minus(PendingPods.MAX_AGE));
      assertThat(pending.readsFromMemory()).isFalse();
      clock.advance(PendingPods.MAX_AGE);
      assertThat(pending.read().selectors()).as("listed again, by this read").isEmpty();
    } finally {
      busy.countDown();
      pending.close();
      client.close();
    }
  }

  @Test
  void theBackendAnswersFromMemoryOnceItHasListedPendingPods() {
    // Until the first list the quote's read waits for the API server: asked on the quote pool.
    assertThat(backend.placementsFromMemory()).isFalse();
    backend.placements(TestJobs.spec(GPU_JOB));
    assertThat(backend.placementsFromMemory()).isTrue();
  }

  private long spotAhead(io.trainyard.spi.spec.JobSpec spec) {
    return backend.placements(spec).placements().stream()
        .filter(p -> p.spot())
        .findFirst()
        .orElseThrow()
        .waitingAhead()
        .count();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long podLists() throws InterruptedException {
    return cluster.drainRequests().stream()
        .filter(r -> r.getMethod().equals("GET") && r.getPath().startsWith("/api/v1/pods?"))
        .count();
  }

  /**
   * The CRUD server ignores {@code fieldSelector=status.phase=Pending} (it answers no pods); a real
   * API server filters pods by phase. Answer the next such list as the real server would, from the
   * store.
   */
  private void servePendingPodsByFieldSelector() {
    var pending =
        cluster.client().pods().inAnyNamespace().list().getItems().stream()
            .filter(p -> "Pending".equals(p.getStatus().getPhase()))
            .toList();
    cluster
        .expect()
        .get()
        .withPath("/api/v1/pods?fieldSelector=status.phase%3DPending")
        .andReturn(
            200, new io.fabric8.kubernetes.api.model.PodListBuilder().withItems(pending).build())
        .once();
  }

  private BackendQuote quote(io.trainyard.spi.spec.JobSpec spec) {
    return new BackendQuote(
        backend.id(), "kubernetes", "us-east-1", false, null, backend.placements(spec), null);
  }

  private void pod(
      String namespace, String name, String phase, String node, Map<String, String> selector) {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .withNodeSelector(selector)
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase(phase)
            .endStatus()
            .build();
    cluster.client().pods().inNamespace(namespace).resource(pod).create();
  }
}
