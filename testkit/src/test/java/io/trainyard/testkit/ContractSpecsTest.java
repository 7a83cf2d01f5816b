package io.trainyard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.SpotPolicy;
import org.junit.jupiter.api.Test;

/** The placements probe stays as wide as the contract says (every spec is validated on build). */
class ContractSpecsTest {
  private final java.util.Collection<io.trainyard.spi.spec.JobSpec> specs =
      ContractSpecs.all().values();

  @Test
  void everyFrameworkIsProbed() {
    assertThat(specs.stream().map(s -> s.framework()).distinct())
        .containsExactlyInAnyOrder(Framework.values());
  }

  @Test
  void theEdgesBackendsDifferOnAreProbed() {
    assertThat(specs).anySatisfy(s -> assertThat(s.totalGpus()).isGreaterThan(60_000));
    assertThat(specs).anySatisfy(s -> assertThat(s.totalGpus()).isZero());
    assertThat(specs)
        .anySatisfy(s -> assertThat(s.effectiveResources().gpuType()).startsWith("tpu-"));
    assertThat(specs)
        .anySatisfy(
            s -> assertThat(s.effectivePlacement().effectiveSpot()).isEqualTo(SpotPolicy.REQUIRED));
    assertThat(specs)
        .anySatisfy(s -> assertThat(s.effectivePlacement().regions()).contains("mars-north-1"));
    assertThat(specs).anySatisfy(s -> assertThat(s.needsKubernetes()).isTrue());
    assertThat(specs).anySatisfy(s -> assertThat(s.secretEnv()).isNotEmpty());
    assertThat(specs).anySatisfy(s -> assertThat(s.totalReplicas()).isGreaterThan(1000));
  }
}
