package io.trainyard.gateway.errors;

import io.trainyard.gateway.api.ErrorResponse;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells an error that means "the database cannot be reached" from every other: by SQLState, which
 * is the JDBC driver's contract, never by message text. Connection exceptions (class {@code 08}),
 * and PostgreSQL's operator interventions that end or refuse sessions ({@code 57P01}
 * admin_shutdown, {@code 57P02} crash_shutdown, {@code 57P03} cannot_connect_now).
 */
final class DatabaseOutage {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseOutage.class);
  static final String RETRY_AFTER_SECONDS = "5";

  private DatabaseOutage() {}

  /**
   * 503 in the error shape with Retry-After. Not a bug and nothing the caller did: the database is
   * away. Nothing was committed (the request's transaction could not be), so the same request can
   * simply be sent again. Logged as a warning, with the driver's words but no stack trace.
   */
  static Response answer(String requestId, Throwable error) {
    LOG.warn("request {} refused: the database is unavailable ({})", requestId, rootOf(error));
    return Response.status(503)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header("Retry-After", RETRY_AFTER_SECONDS)
        .entity(
            new ErrorResponse(
                ErrorCode.DATABASE_UNAVAILABLE.name(),
                "the gateway's database is unavailable; nothing was changed, retry later",
                List.of(),
                requestId,
                null))
        .build();
  }

  private static String rootOf(Throwable error) {
    var root = error;
    for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + root.getMessage();
  }

  static boolean isCause(Throwable error) {
    return isCause(error, 0);
  }

  /**
   * Through causes and suppressed exceptions: a rollback or close that failed on the broken
   * connection may be what is thrown, with the driver's words attached as suppressed.
   */
  private static boolean isCause(Throwable error, int depth) {
    for (var t = error; t != null && depth < 20; t = t.getCause(), depth++) {
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof SQLRecoverableException
          || t instanceof ConnectException) {
        return true;
      }
      if (t instanceof SQLException sql && isOutageState(sql.getSQLState())) {
        return true;
      }
      for (var suppressed : t.getSuppressed()) {
        if (isCause(suppressed, depth + 1)) {
          return true;
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static boolean isOutageState(String state) {
    return state != null
        && (state.startsWith("08")
            || state.equals("57P01")
            || state.equals("57P02")
            || state.equals("57P03"));
  }
}
