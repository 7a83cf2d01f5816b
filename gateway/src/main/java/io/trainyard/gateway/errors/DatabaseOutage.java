package io.trainyard.gateway.errors;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * Tells an error that means "the database cannot be reached" from every other: by SQLState, which
 * is the JDBC driver's contract, never by message text. Connection exceptions (class {@code 08}),
 * and PostgreSQL's operator interventions that end or refuse sessions ({@code 57P01}
 * admin_shutdown, {@code 57P02} crash_shutdown, {@code 57P03} cannot_connect_now).
 */
final class DatabaseOutage {
  static final String RETRY_AFTER_SECONDS = "5";

  private DatabaseOutage() {}

  static boolean isCause(Throwable error) {
    int depth = 0;
    for (var t = error; t != null && depth < 20; t = t.getCause(), depth++) {
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof ConnectException) {
        return true;
      }
      if (t instanceof SQLException sql && isOutageState(sql.getSQLState())) {
        return true;
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
