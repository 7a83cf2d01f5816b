package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExportFilterTest {

  @Test
  void aFilterDoesNotMatchWhatAnEventLacks() {
    // An authentication failure has no subject, team or backend: filtering by any of them must
    // leave it out, not fail the export.
    var anonymous =
        AuditEvent.builder()
            .seq(1)
            .time(Instant.parse("2030-01-01T00:00:00Z"))
            .actor(new AuditActor(null, null, null, "10.0.0.9", null))
            .action(AuditActions.AUTH_FAILURE)
            .resource("auth/token")
            .outcome(Outcome.DENIED)
            .build();
    assertThat(new ExportFilter(Set.of("alice"), null, null, null, null, null).matches(anonymous))
        .isFalse();
    assertThat(new ExportFilter(null, Set.of("nlp"), null, null, null, null).matches(anonymous))
        .isFalse();
    assertThat(new ExportFilter(null, null, null, Set.of("local"), null, null).matches(anonymous))
        .isFalse();
    assertThat(new ExportFilter(null, null, Set.of("auth.*"), null, null, null).matches(anonymous))
        .isTrue();
  }
}
