package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;

class SageMakerHostsTest {
  private final SageMakerHosts hosts = SageMakerHosts.parse("master:1,worker:2");

  @Test
  void hostsAreNumberedInRankOrder() {
    assertThat(hosts.replicas()).containsExactly("master-0", "worker-0", "worker-1");
    assertThat(hosts.hostOf("master-0")).contains("algo-1");
    assertThat(hosts.hostOf("worker-1")).contains("algo-3");
    assertThat(hosts.hostOf("worker-2")).isEmpty();
  }

  @Test
  void streamNamesMapBackToReplicas() {
    assertThat(hosts.replicaOfStream("ty-x-a1/algo-1-1718000000")).isEqualTo("master-0");
    assertThat(hosts.replicaOfStream("ty-x-a1/algo-3-1718000000")).isEqualTo("worker-1");
    assertThat(hosts.replicaOfStream("ty-x-a1/algo-7-1718000000")).isEqualTo("algo-7");
    assertThat(hosts.replicaOfStream("ty-x-a1/other")).isEqualTo("other");
  }

  @Test
  void survivesTheRoundTripThroughTheExternalReference() {
    var counts = new LinkedHashMap<String, Integer>();
    counts.put("chief", 1);
    counts.put("ps", 2);
    counts.put("worker", 3);
    var layout = new SageMakerHosts(counts);

    assertThat(SageMakerHosts.parse(layout.encode())).isEqualTo(layout);
    assertThat(SageMakerHosts.parse(null).replicas()).isEmpty();
  }
}
