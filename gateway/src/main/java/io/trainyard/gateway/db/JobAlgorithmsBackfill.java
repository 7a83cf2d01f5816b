package io.trainyard.gateway.db;

import java.sql.SQLException;
import java.util.ArrayList;
import liquibase.change.custom.CustomTaskChange;
import liquibase.database.Database;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.CustomChangeException;
import liquibase.exception.ValidationErrors;
import liquibase.resource.ResourceAccessor;

/**
 * changeSet {@code api-6}: fills {@code jobs.algorithm_name} and {@code algorithm_version} of the
 * jobs stored before {@link JobAlgorithms} kept them, once, so that {@code GET /v1/jobs?algorithm=}
 * finds old jobs too. Reads only specs that mention an algorithm.
 */
public final class JobAlgorithmsBackfill implements CustomTaskChange {
  private int filled;

  @Override
  public void execute(Database database) throws CustomChangeException {
    var connection = ((JdbcConnection) database.getConnection()).getUnderlyingConnection();
    var found = new ArrayList<Object[]>();
    try (var select =
        connection.prepareStatement(
            "SELECT id, spec_json FROM jobs WHERE algorithm_name IS NULL"
                + " AND spec_json LIKE '%\"algorithm\"%'")) {
      try (var rows = select.executeQuery()) {
        while (rows.next()) {
          var algorithm = JobAlgorithms.of(rows.getString(2));
          if (algorithm != null) {
            found.add(new Object[] {rows.getString(1), algorithm});
          }
        }
      }
      try (var update =
          connection.prepareStatement(
              "UPDATE jobs SET algorithm_name = ?, algorithm_version = ? WHERE id = ?")) {
        for (var row : found) {
          var algorithm = (JobAlgorithms.Reference) row[1];
          update.setString(1, algorithm.name());
          update.setInt(2, algorithm.version());
          update.setString(3, (String) row[0]);
          update.addBatch();
        }
        if (!found.isEmpty()) {
          update.executeBatch();
        }
      }
      filled = found.size();
    } catch (SQLException e) {
      throw new CustomChangeException("filling jobs.algorithm_name failed", e);
    }
  }

  @Override
  public String getConfirmationMessage() {
    return "algorithm of " + filled + " stored job(s) filled in";
  }

  @Override
  public void setUp() {}

  @Override
  public void setFileOpener(ResourceAccessor resourceAccessor) {}

  @Override
  public ValidationErrors validate(Database database) {
    return new ValidationErrors();
  }
}
