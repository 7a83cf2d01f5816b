package io.trainyard.gateway.backends;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.metrics.GatewayMetrics;
import io.trainyard.gateway.metrics.PrometheusText;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's call metrics around every backend of the registry: a backend whose cluster is down
 * (the registry's own stand-in, which refuses every call as retryable) is measured by operation,
 * with its errors counted by kind, and answers exactly as it did undecorated.
 */
class MeasuredBackendTest {
  private final GatewayMetrics metrics = new GatewayMetrics();

  @Test
  void everyCallIsTimedAndEveryFailureCountedByKind() {
    var registry =
        BackendRegistry.of(
            List.of(
                new BackendRegistry.Entry(
                    new UnstartedBackend("kubernetes", "onprem-a", "cluster unreachable"),
                    new io.trainyard.backend.local.LocalConfig(
                        "onprem-a", null, false, null, null, null, null, null, null))));
    registry.decorate(metrics.backendCalls()::measuring);
    var backend = registry.find("onprem-a").orElseThrow().backend();
    assertThat(backend.id()).isEqualTo("onprem-a");
    assertThat(backend.kind()).isEqualTo("kubernetes");
    assertThat(backend.keepsLogs()).isFalse();

    var ref = new ExternalRef("onprem-a", "ty-x-a1", Map.of());
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> backend.status(ref)).isInstanceOf(BackendException.Retryable.class);
    }
    assertThatThrownBy(() -> backend.cancel(ref)).isInstanceOf(BackendException.Retryable.class);
    assertThat(backend.placements(null).placements()).isEmpty(); // a rejection is an answer
    assertThat(backend.health().healthy()).isFalse();

    var scrape = PrometheusText.of(metrics.registry());
    var count = "trainyard_backend_call_duration_seconds_count";
    assertThat(scrape.valueOrZero(count, call("status", "outcome", "error"))).isEqualTo(3.0);
    assertThat(scrape.valueOrZero(count, call("cancel", "outcome", "error"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(count, call("quote", "outcome", "ok"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(count, call("health", "outcome", "ok"))).isEqualTo(1.0);
    var errors = "trainyard_backend_call_errors_total";
    assertThat(scrape.valueOrZero(errors, call("status", "error", "retryable"))).isEqualTo(3.0);
    assertThat(scrape.valueOrZero(errors, call("cancel", "error", "retryable"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(errors, call("quote", "error", "retryable"))).isZero();
  }

  @Test
  void decoratingTwiceMeasuresOnce() {
    var inner = new UnstartedBackend("local", "local", "not yet");
    var once = metrics.backendCalls().measuring(inner);
    assertThat(metrics.backendCalls().measuring(once)).isSameAs(once);
  }

  private static Map<String, String> call(String operation, String key, String value) {
    return Map.of("backend", "onprem-a", "operation", operation, key, value);
  }
}
