package io.trainyard.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** A job's fields are in the MDC while the gateway acts on it, and what was there comes back. */
class JobMdcTest {
  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void theJobsFieldsHoldInsideAndThePreviousOnesComeBack() {
    MDC.put("requestId", "r-1");
    MDC.put(JobMdc.JOB_ID, "outer");
    try (var mdc = JobMdc.of("inner", "ml", null)) {
      assertThat(MDC.get(JobMdc.JOB_ID)).isEqualTo("inner");
      assertThat(MDC.get(JobMdc.TEAM)).isEqualTo("ml");
      assertThat(MDC.get(JobMdc.BACKEND)).as("not routed yet").isNull();
      assertThat(MDC.get("requestId")).isEqualTo("r-1");
    }
    assertThat(MDC.get(JobMdc.JOB_ID)).isEqualTo("outer");
    assertThat(MDC.get(JobMdc.TEAM)).isNull();
    assertThat(MDC.get("requestId")).isEqualTo("r-1");
  }
}
