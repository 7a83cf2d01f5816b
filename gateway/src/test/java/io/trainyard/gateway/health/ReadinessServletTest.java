package io.trainyard.gateway.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;

class ReadinessServletTest {
  private static HealthCheck of(boolean healthy) {
    return new HealthCheck() {
      @Override
      protected Result check() {
        return healthy ? Result.healthy() : Result.unhealthy("down");
      }
    };
  }

  @Test
  void aBackendOrThePriceRefreshNeverCountsTheDatabaseDoes() {
    var registry = new HealthCheckRegistry();
    registry.register("database", of(true));
    registry.register("backend-gke-usc1", of(false));
    registry.register("prices", of(false));
    var readiness = new ReadinessServlet(registry);
    assertThat(readiness.results()).containsOnlyKeys("database");
    assertThat(readiness.results().get("database").isHealthy()).isTrue();

    registry.register("deadlocks", of(false));
    assertThat(readiness.results()).containsOnlyKeys("database", "deadlocks");
    assertThat(readiness.results().values()).anyMatch(r -> !r.isHealthy());
  }
}
