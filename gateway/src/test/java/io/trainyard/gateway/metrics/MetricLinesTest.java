package io.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What counts as a metric line, what is its best value, and who gets a metrics URL. */
class MetricLinesTest {
  private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void aMetricLineAnywhereOnTheLineIsRead() {
    assertThat(MetricLines.parse("trainyard-metric name=loss value=0.42 step=3 epoch=1", AT))
        .contains(new MetricPoint("loss", 0.42, 3L, 1L, AT));
    assertThat(
            MetricLines.parse(
                "[master-0] 2026-11-30 INFO trainyard-metric name=val_acc value=9e-1 epoch=2 note=x",
                AT))
        .contains(new MetricPoint("val_acc", 0.9, null, 2L, AT));
    assertThat(MetricLines.parse("trainyard-metric   value=-1.5 name=loss step=7", AT))
        .contains(new MetricPoint("loss", -1.5, 7L, null, AT));
  }

  @Test
  void anythingElseIsNotAMetric() {
    for (var text :
        List.of(
            "epoch 1 loss 0.9",
            "trainyard-metric name=loss step=3",
            "trainyard-metric value=1 step=3",
            "trainyard-metric name=loss value=0.4",
            "trainyard-metric name=loss value=abc step=1",
            "trainyard-metric name=loss value=NaN step=1",
            "trainyard-metric name=loss value=1e300 step=1",
            "trainyard-metric name=loss value=1 step=-1",
            "trainyard-metric name=loss value=1 step=1.5",
            "not-trainyard-metric name=loss value=1 step=1",
            "")) {
      assertThat(MetricLines.parse(text, AT)).as(text).isEmpty();
    }
    assertThat(MetricLines.parse(null, AT)).isEmpty();
  }

  @Test
  void bestIsTheLowestLossAndTheHighestOfTheRestUnlessAsked() {
    var points =
        List.of(
            new MetricPoint("accuracy", 0.5, 1L, null, AT),
            new MetricPoint("accuracy", 0.8, 2L, null, AT),
            new MetricPoint("accuracy", 0.7, 3L, null, AT),
            new MetricPoint("val_loss", 0.3, 1L, null, AT),
            new MetricPoint("val_loss", 0.2, 2L, null, AT),
            new MetricPoint("val_loss", 0.4, 3L, null, AT));
    var series = MetricSeries.of(points, null);
    assertThat(series).extracting(MetricSeries::name).containsExactly("accuracy", "val_loss");
    assertThat(series.get(0).goal()).isEqualTo("max");
    assertThat(series.get(0).best().value()).isEqualTo(0.8);
    assertThat(series.get(0).last().value()).isEqualTo(0.7);
    assertThat(series.get(1).goal()).isEqualTo("min");
    assertThat(series.get(1).best().value()).isEqualTo(0.2);
    assertThat(MetricSeries.of(points, "min").get(0).best().value()).isEqualTo(0.5);
    assertThat(MetricSeries.defaultGoal("train/error_rate")).isEqualTo("min");
    assertThat(MetricSeries.defaultGoal("f1")).isEqualTo("max");
    var none = MetricSeries.one("loss", List.of(), null);
    assertThat(none.best()).isNull();
    assertThat(none.last()).isNull();
  }

  @Test
  void aLoopbackUrlIsNoUseToJobsOutsideTheGatewaysNetwork() {
    assertThat(MetricsEnvironment.loopback(java.net.URI.create("http://127.0.0.1:8080"))).isTrue();
    assertThat(MetricsEnvironment.loopback(java.net.URI.create("http://localhost:8080"))).isTrue();
    assertThat(MetricsEnvironment.loopback(java.net.URI.create("http://[::1]:8080"))).isTrue();
    assertThat(MetricsEnvironment.loopback(java.net.URI.create("https://trainyard.example.com")))
        .isFalse();
    assertThat(MetricsEnvironment.loopback(java.net.URI.create("http://10.0.0.5:8080"))).isFalse();
    assertThat(
            MetricsEnvironment.metricsUrl(
                java.net.URI.create("https://trainyard.example.com/api/"), "01j"))
        .isEqualTo("https://trainyard.example.com/api/v1/jobs/01j/metrics");
  }
}
