package io.trainyard.gateway.backends;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.gateway.testing.SwitchedBackendFactory;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backends whose cloud is down at start, or goes down later: the gateway starts anyway, says why,
 * and recovers by itself; health is probed in the background and read from a cache.
 */
class BackendRegistryTest {
  @TempDir Path dir;
  private BackendRegistry registry;

  @AfterEach
  void stop() {
    if (registry != null) {
      registry.stop();
    }
  }

  @Test
  void aBackendWhoseCloudIsDownAtStartStartsUnhealthyAndIsBuiltOnceItIsBack() throws IOException {
    var outage = Files.createFile(dir.resolve("outage"));
    registry = registry(switched("gke-usc1", outage, null, false));

    assertThat(registry.all()).extracting(e -> e.config().id()).containsExactly("gke-usc1");
    var health = registry.health("gke-usc1");
    assertThat(health.healthy()).isFalse();
    assertThat(health.message())
        .isEqualTo("not started: gke-usc1: the cluster API answered 503 Service Unavailable");
    assertThat(registry.unavailableReason("gke-usc1")).contains("503 Service Unavailable");
    var standIn = registry.find("gke-usc1").orElseThrow().backend();
    assertThat(standIn.placements(null).rejections().get(0).reason()).contains("not started");
    assertThatThrownBy(() -> standIn.status(new ExternalRef("gke-usc1", "ty-x-a1", Map.of())))
        .as("jobs on it wait instead of failing")
        .isInstanceOf(BackendException.Retryable.class);

    var started = new java.util.ArrayList<BackendRegistry.Entry>();
    registry.onLateStart(started::add);
    registry.retryUnstarted();
    assertThat(registry.health("gke-usc1").healthy()).as("still down").isFalse();
    assertThat(started).isEmpty();

    Files.delete(outage);
    registry.retryUnstarted();
    assertThat(started)
        .as("the reconciler hears of it, to subscribe to its events")
        .singleElement()
        .satisfies(e -> assertThat(e.config().id()).isEqualTo("gke-usc1"));
    assertThat(registry.health("gke-usc1").healthy()).isTrue();
    assertThat(registry.unavailableReason("gke-usc1")).isNull();
    assertThat(registry.find("gke-usc1").orElseThrow().backend())
        .isNotInstanceOf(UnstartedBackend.class);
  }

  @Test
  void anInvalidBlockStillStopsStartUp() {
    assertThatThrownBy(() -> registry(switched("bad", null, null, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad: invalid is true");
  }

  @Test
  void healthIsReadFromTheCacheAndChangesOnlyWithABackgroundProbe() throws IOException {
    var sick = dir.resolve("sick");
    registry = registry(switched("onprem", null, sick, false));
    registry.checkAll();
    var probes = SwitchedBackendFactory.HEALTH_CHECKS.get();

    Files.createFile(sick);
    for (int i = 0; i < 5; i++) {
      assertThat(registry.health("onprem").healthy()).isTrue();
    }
    assertThat(SwitchedBackendFactory.HEALTH_CHECKS.get())
        .as("reading health calls no backend")
        .isEqualTo(probes);

    registry.checkAll();
    assertThat(registry.health("onprem").healthy()).isFalse();
    assertThat(registry.unavailableReason("onprem")).isEqualTo("unhealthy: API server answers 500");

    Files.delete(sick);
    registry.checkAll();
    assertThat(registry.health("onprem").healthy())
        .as("unhealthy does not stick once a probe passes")
        .isTrue();
    assertThat(registry.unavailableReason("onprem")).isNull();
  }

  @Test
  void theBackgroundScheduleProbesAndRetriesByItself() throws Exception {
    var outage = Files.createFile(dir.resolve("outage"));
    registry =
        new BackendRegistry(
            List.of(switched("late", outage, null, false)),
            PriceCatalog.embedded(),
            dir,
            Clock.systemUTC(),
            false,
            new BackendRegistry.Settings(
                Duration.ofMillis(50), Duration.ofSeconds(5), Duration.ofMillis(50)));
    registry.start();
    assertThat(registry.health("late").healthy()).isFalse();
    Files.delete(outage);
    var deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!registry.health("late").healthy() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(registry.health("late").healthy()).isTrue();
  }

  private BackendRegistry registry(BackendConfig config) {
    return new BackendRegistry(List.of(config), PriceCatalog.embedded(), dir, Clock.systemUTC());
  }

  private static BackendConfig switched(String id, Path down, Path unhealthy, boolean invalid) {
    return new SwitchedBackendFactory.Config(
        id,
        "r1",
        false,
        BigDecimal.ZERO,
        down == null ? null : down.toString(),
        unhealthy == null ? null : unhealthy.toString(),
        invalid);
  }
}
