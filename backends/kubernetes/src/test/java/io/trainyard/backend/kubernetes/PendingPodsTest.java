package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which pending pods count ahead of a placement: a pod whose nodeSelector the placement's pools
 * contradict waits for other nodes ({@link NodeLabels}); a pod without a selector may take any.
 */
class PendingPodsTest {
  private final ClusterSettings cluster = TestJobs.config(TestJobs.AWS_POOLS).settings();

  private NodePool pool(String name) {
    return cluster.nodePools().stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aPodCountsAheadOfThePoolsItsSelectorAllows() {
    var pending =
        new PendingPods.Snapshot(
            List.of(
                Map.of("pool", "a10g"),
                Map.of("pool", "a10g"),
                Map.of(NodeLabels.EKS_CAPACITY_TYPE, "SPOT"),
                Map.of(),
                Map.of("pool", "a10g-od")),
            null);
    // Spot pool a10g: its two pinned pods, the SPOT one and the unpinned one.
    assertThat(pending.ahead(List.of(pool("a10g")), cluster).count()).isEqualTo(4);
    // On-demand a10g-od: its own and the unpinned one.
    assertThat(pending.ahead(List.of(pool("a10g-od")), cluster).count()).isEqualTo(2);
    // The CPU pool (no labels of its own): pods pinned by `pool` might still land there, since
    // the pool states no `pool` label; only the SPOT one is ruled out.
    var cpu = pending.ahead(List.of(pool("cpu")), cluster);
    assertThat(cpu.count()).isEqualTo(4);
    assertThat(cpu.unit()).isEqualTo("pods");
    assertThat(cpu.source()).startsWith(PendingPods.SOURCE);
  }

  @Test
  void aFailedReadIsUnknownWithItsReason() {
    var ahead =
        PendingPods.Snapshot.unknown("pending pods could not be listed: forbidden")
            .ahead(List.of(pool("cpu")), cluster);
    assertThat(ahead.known()).isFalse();
    assertThat(ahead.describe())
        .isEqualTo("waiting ahead unknown (pending pods could not be listed: forbidden)");
  }
}
