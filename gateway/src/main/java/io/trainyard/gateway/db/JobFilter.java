package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What {@link JobSearch#page} selects: every member optional (null or empty: no condition). Each
 * condition is answered from an index on its column with {@code created_at}.
 *
 * @param teams only these teams' jobs; null for every team (platform-admin, auditor), empty for
 *     none
 * @param algorithm {@code team/name}: any version of the registered algorithm
 * @param algorithmVersion with {@code algorithm}: only that version; null for all
 * @param owner the submitter's user name, as jobs show it ({@code owner})
 * @param since created at or after
 * @param until created before
 */
public record JobFilter(
    Set<String> teams,
    Set<JobState> states,
    String backend,
    String algorithm,
    Integer algorithmVersion,
    String owner,
    Instant since,
    Instant until) {
  public JobFilter {
    teams = teams == null ? null : Set.copyOf(teams);
    states = states == null ? Set.of() : Set.copyOf(states);
  }

  /** Every job. */
  public static final JobFilter ALL =
      new JobFilter(null, Set.of(), null, null, null, null, null, null);

  public JobFilter withTeams(Set<String> only) {
    return new JobFilter(only, states, backend, algorithm, algorithmVersion, owner, since, until);
  }

  /** The sorted team list, for binding. */
  List<String> teamList() {
    return teams.stream().sorted().toList();
  }

  /**
   * Where a page ends: the last row's creation time and id. The next page starts strictly after it
   * in (created_at DESC, id DESC) order, so rows added meanwhile (always newer) never shift it.
   */
  public record Position(Instant createdAt, String id) {}
}
