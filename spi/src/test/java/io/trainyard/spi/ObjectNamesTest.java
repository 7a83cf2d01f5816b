package io.trainyard.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ObjectNamesTest {
  @Test
  void namesAreDns1035LabelsThatLeadBackToTheJob() {
    var id = "01jdx3k8m2q7rt5vw9yz0abcde";
    var name = ObjectNames.of(id, 2);
    assertThat(name)
        .isEqualTo("ty-01jdx3k8m2q7rt5vw9yz0abcde-a2")
        .matches("[a-z]([-a-z0-9]*[a-z0-9])?");
    assertThat(name.length()).isLessThanOrEqualTo(63);
    assertThat(ObjectNames.jobIdOf(name)).contains(id);
    assertThat(ObjectNames.jobIdOf("someone-elses-job")).isEmpty();
  }
}
