package io.trainyard.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.DigestPolicy;
import io.trainyard.gateway.testing.PostgresExtension;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On PostgreSQL the audit tables refuse every change but INSERT, whoever asks, and a role that does
 * not own them (as the README tells operators to run the gateway) cannot switch that off.
 */
@ExtendWith(PostgresExtension.class)
class AppendOnlyPostgresIT extends AuditTrailFixture {

  @BeforeAll
  void someEventsAndADigest() {
    for (int i = 0; i < 3; i++) {
      replica.log().record(event("test/" + i));
    }
    var signing =
        new DigestSigning(
            replica.audit(),
            new AuditLeases(db.jdbi(), clock),
            signer,
            new DigestPolicy(1, Duration.ofHours(1)),
            "replica-a",
            Duration.ofSeconds(30),
            clock);
    assertThat(signing.tick()).isPresent();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "UPDATE audit_events SET resource = 'forged' WHERE seq = 1",
        "DELETE FROM audit_events WHERE seq = 3",
        "TRUNCATE audit_events",
        "UPDATE audit_digests SET last_hash = repeat('0', 64)",
        "DELETE FROM audit_digests",
        "TRUNCATE audit_digests"
      })
  void everyChangeButAnInsertIsRefused(String sql) {
    assertThatThrownBy(() -> db.jdbi().useHandle(h -> h.execute(sql)))
        .isInstanceOf(UnableToExecuteStatementException.class)
        .hasMessageContaining("is append-only");
    assertThat(verifyAll().ok()).isTrue();
    assertThat(chain()).hasSize(3);
  }

  @Test
  void aRoleThatDoesNotOwnTheTablesCannotSwitchTheTriggersOff() throws Exception {
    db.jdbi()
        .useHandle(
            h -> {
              h.execute("CREATE ROLE audit_owner NOLOGIN");
              h.execute("CREATE ROLE gateway LOGIN");
              h.execute("ALTER TABLE audit_events OWNER TO audit_owner");
              h.execute("GRANT SELECT, INSERT ON audit_events TO gateway");
            });
    try (var c = DriverManager.getConnection(db.url(), "gateway", "");
        var s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("ALTER TABLE audit_events DISABLE TRIGGER ALL"))
          .hasMessageContaining("must be owner");
      assertThatThrownBy(() -> s.execute("DROP TABLE audit_events"))
          .hasMessageContaining("must be owner");
      assertThatThrownBy(() -> s.execute("DELETE FROM audit_events"))
          .hasMessageContaining("permission denied");
    }
  }

  private AuditEntry event(String resource) {
    return AuditEntry.builder(
            clock.instant(), AuditActor.system("test"), AuditActions.CONFIG_START, resource)
        .details(Map.of("n", resource))
        .build();
  }
}
