package io.trainyard.gateway.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.gateway.api.ErrorResponse;
import java.sql.SQLException;
import org.jdbi.v3.core.ConnectionException;
import org.junit.jupiter.api.Test;

/**
 * A database that cannot be reached is a 503 in the error shape with Retry-After, not a 500: told
 * by SQLState, through whatever wraps the driver's exception.
 */
class DatabaseOutageTest {
  private final ApiExceptionMapper mapper = new ApiExceptionMapper();

  @Test
  void connectionRefusedThroughJdbiIs503WithRetryAfter() throws Exception {
    var refused = new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
    var response = mapper.toResponse(new ConnectionException(refused));
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
    var body = (ErrorResponse) response.getEntity();
    assertThat(body.code()).isEqualTo("DATABASE_UNAVAILABLE");
    assertThat(new ObjectMapper().writeValueAsString(body))
        .doesNotContain("127.0.0.1")
        .contains("\"errors\":[]");
  }

  @Test
  void sessionsEndedByAFastShutdownAndAStartingServerAreOutages() {
    for (var state : new String[] {"57P01", "57P03", "08006"}) {
      var error = new IllegalStateException(new SQLException("gone", state));
      assertThat(DatabaseOutage.isCause(error)).as(state).isTrue();
    }
  }

  @Test
  void anOutageBehindAFailedRollbackOrCloseIsStillAnOutage() {
    // What JDBI throws when the handle cannot be closed cleanly, the driver's error suppressed.
    var close = new IllegalStateException("Improper transaction handling detected");
    close.addSuppressed(
        new SQLException("An I/O error occurred while sending to the backend", "08006"));
    assertThat(DatabaseOutage.isCause(close)).isTrue();
    assertThat(
            DatabaseOutage.isCause(
                new RuntimeException(new java.sql.SQLRecoverableException("lost"))))
        .isTrue();
    var unrelated = new IllegalStateException("a bug");
    unrelated.addSuppressed(new SQLException("duplicate key", "23505"));
    assertThat(DatabaseOutage.isCause(unrelated)).isFalse();
  }

  @Test
  void otherDatabaseErrorsStayInternal() {
    var unique = new SQLException("duplicate key", "23505");
    assertThat(DatabaseOutage.isCause(new RuntimeException(unique))).isFalse();
    assertThat(mapper.toResponse(new RuntimeException(unique)).getStatus()).isEqualTo(500);
  }
}
