package io.trainyard.gateway.db;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;

/**
 * {@code GET /v1/jobs}: jobs matching a {@link JobFilter}, newest first, one page at a time by
 * keyset on (created_at, id). Every filter is a condition on an indexed column ({@code
 * changelog.xml} "api-" changeSets), so a page costs an index range read whatever the table holds.
 * Plain SQL that H2 and PostgreSQL read alike. Thread-safe.
 */
public final class JobSearch {
  private final Jdbi jdbi;

  public JobSearch(Jdbi jdbi) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
  }

  /**
   * Up to {@code limit} jobs after {@code afterOrNull}, newest first.
   *
   * @param afterOrNull where the previous page ended; null for the first page
   */
  public List<JobRow> page(JobFilter filter, JobFilter.Position afterOrNull, int limit) {
    if (filter.teams() != null && filter.teams().isEmpty()) {
      return List.of();
    }
    var where = new ArrayList<String>();
    if (filter.teams() != null) {
      where.add(filter.teams().size() == 1 ? "team = :team" : "team IN (<teams>)");
    }
    if (!filter.states().isEmpty()) {
      where.add("state IN (<states>)");
    }
    if (filter.backend() != null) {
      where.add("backend_id = :backend");
    }
    if (filter.algorithm() != null) {
      where.add("algorithm_name = :algorithm");
      if (filter.algorithmVersion() != null) {
        where.add("algorithm_version = :algorithmVersion");
      }
    }
    if (filter.owner() != null) {
      where.add("owner_username = :owner");
    }
    if (filter.since() != null) {
      where.add("created_at >= :since");
    }
    if (filter.until() != null) {
      where.add("created_at < :until");
    }
    if (afterOrNull != null) {
      where.add("(created_at < :afterAt OR (created_at = :afterAt AND id < :afterId))");
    }
    var sql =
        JobColumns.SELECT
            + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
            + " ORDER BY created_at DESC, id DESC LIMIT :limit";
    return jdbi.withHandle(
        h -> {
          var q = h.createQuery(sql).bind("limit", limit);
          if (filter.teams() != null) {
            if (filter.teams().size() == 1) {
              q.bind("team", filter.teams().iterator().next());
            } else {
              q.bindList("teams", filter.teamList());
            }
          }
          if (!filter.states().isEmpty()) {
            q.bindList("states", filter.states().stream().map(Enum::name).sorted().toList());
          }
          if (filter.backend() != null) {
            q.bind("backend", filter.backend());
          }
          if (filter.algorithm() != null) {
            q.bind("algorithm", filter.algorithm());
            if (filter.algorithmVersion() != null) {
              q.bind("algorithmVersion", filter.algorithmVersion());
            }
          }
          if (filter.owner() != null) {
            q.bind("owner", filter.owner());
          }
          if (filter.since() != null) {
            q.bind("since", JobColumns.utc(filter.since()));
          }
          if (filter.until() != null) {
            q.bind("until", JobColumns.utc(filter.until()));
          }
          if (afterOrNull != null) {
            q.bind("afterAt", JobColumns.utc(afterOrNull.createdAt()));
            q.bind("afterId", afterOrNull.id());
          }
          return q.map(JobColumns.MAPPER).list();
        });
  }
}
