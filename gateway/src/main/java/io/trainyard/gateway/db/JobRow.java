package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One row of {@code jobs}, exactly as stored: times are cut to microseconds and money to six
 * decimals, the finest both H2 and PostgreSQL keep, so a row read back equals the row written.
 *
 * <p>{@code liveName} is derived, never set: the name while the job is live, {@code null} once it
 * is terminal. The unique (team, live_name) constraint builds on that, so the record refuses any
 * other combination.
 *
 * <p>{@code version}, {@code leaseOwner} and {@code leaseUntil} belong to {@link JobStore}: values
 * given on insert or update are ignored; read rows carry the stored ones.
 *
 * @param backendId null while no offer is chosen (QUEUED)
 * @param offerIndex which offer of the routing decision the current attempt uses
 * @param externalRefJson how the backend finds the current attempt; null until submitted
 */
public record JobRow(
    String id,
    String team,
    String ownerSubject,
    String ownerUsername,
    String name,
    String liveName,
    JobState state,
    int attempt,
    String specJson,
    String specHash,
    String decisionJson,
    int offerIndex,
    String backendId,
    String externalRefJson,
    BigDecimal hourlyUsd,
    BigDecimal estimatedUsd,
    String reason,
    int restarts,
    boolean cancelRequested,
    Instant createdAt,
    Instant updatedAt,
    Instant submittedAt,
    Instant startedAt,
    Instant endedAt,
    String leaseOwner,
    Instant leaseUntil,
    long version) {

  public JobRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(ownerSubject, "ownerSubject");
    Objects.requireNonNull(ownerUsername, "ownerUsername");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(specJson, "specJson");
    Objects.requireNonNull(specHash, "specHash");
    Objects.requireNonNull(decisionJson, "decisionJson");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (!Objects.equals(liveName, liveName(state, name))) {
      throw new IllegalArgumentException(
          "liveName must be the name while live and null once terminal, got " + liveName);
    }
    hourlyUsd = money(hourlyUsd);
    estimatedUsd = money(estimatedUsd);
    createdAt = micros(createdAt);
    updatedAt = micros(updatedAt);
    submittedAt = micros(submittedAt);
    startedAt = micros(startedAt);
    endedAt = micros(endedAt);
    leaseUntil = micros(leaseUntil);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Whether a replica other than {@code owner} holds this job's lease at {@code now}. */
  public boolean heldByAnother(String owner, Instant now) {
    return leaseOwner != null
        && !leaseOwner.equals(owner)
        && leaseUntil != null
        && leaseUntil.isAfter(now);
  }

  /**
   * This job in {@code next} state: the reason is replaced, {@code submittedAt} and {@code
   * startedAt} are set the first time the job is SUBMITTED or RUNNING, and a terminal state frees
   * the name and sets {@code endedAt}. Whether the move is allowed is checked by {@link
   * JobStore#update}, against the stored state.
   */
  public JobRow withState(JobState next, String reason, Instant now) {
    var b = toBuilder().state(next).reason(reason).updatedAt(now);
    if (next == JobState.SUBMITTED && submittedAt == null) {
      b.submittedAt(now);
    }
    if (next == JobState.RUNNING && startedAt == null) {
      b.startedAt(now);
    }
    if (next.isTerminal()) {
      b.endedAt(now);
    }
    return b.build();
  }

  static String liveName(JobState state, String name) {
    return state.isTerminal() ? null : name;
  }

  private static Instant micros(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
  }

  private static BigDecimal money(BigDecimal usd) {
    return usd == null ? null : usd.setScale(6, RoundingMode.HALF_UP);
  }

  /** Builds rows; {@code liveName} follows from state and name. */
  public static final class Builder {
    private String id;
    private String team;
    private String ownerSubject;
    private String ownerUsername;
    private String name;
    private JobState state;
    private int attempt = 1;
    private String specJson;
    private String specHash;
    private String decisionJson;
    private int offerIndex;
    private String backendId;
    private String externalRefJson;
    private BigDecimal hourlyUsd;
    private BigDecimal estimatedUsd;
    private String reason;
    private int restarts;
    private boolean cancelRequested;
    private Instant createdAt;
    private Instant updatedAt;
    private Instant submittedAt;
    private Instant startedAt;
    private Instant endedAt;
    private String leaseOwner;
    private Instant leaseUntil;
    private long version;

    private Builder() {}

    private Builder(JobRow r) {
      id = r.id;
      team = r.team;
      ownerSubject = r.ownerSubject;
      ownerUsername = r.ownerUsername;
      name = r.name;
      state = r.state;
      attempt = r.attempt;
      specJson = r.specJson;
      specHash = r.specHash;
      decisionJson = r.decisionJson;
      offerIndex = r.offerIndex;
      backendId = r.backendId;
      externalRefJson = r.externalRefJson;
      hourlyUsd = r.hourlyUsd;
      estimatedUsd = r.estimatedUsd;
      reason = r.reason;
      restarts = r.restarts;
      cancelRequested = r.cancelRequested;
      createdAt = r.createdAt;
      updatedAt = r.updatedAt;
      submittedAt = r.submittedAt;
      startedAt = r.startedAt;
      endedAt = r.endedAt;
      leaseOwner = r.leaseOwner;
      leaseUntil = r.leaseUntil;
      version = r.version;
    }

    public Builder id(String v) {
      id = v;
      return this;
    }

    public Builder team(String v) {
      team = v;
      return this;
    }

    public Builder ownerSubject(String v) {
      ownerSubject = v;
      return this;
    }

    public Builder ownerUsername(String v) {
      ownerUsername = v;
      return this;
    }

    public Builder name(String v) {
      name = v;
      return this;
    }

    public Builder state(JobState v) {
      state = v;
      return this;
    }

    public Builder attempt(int v) {
      attempt = v;
      return this;
    }

    public Builder specJson(String v) {
      specJson = v;
      return this;
    }

    public Builder specHash(String v) {
      specHash = v;
      return this;
    }

    public Builder decisionJson(String v) {
      decisionJson = v;
      return this;
    }

    public Builder offerIndex(int v) {
      offerIndex = v;
      return this;
    }

    public Builder backendId(String v) {
      backendId = v;
      return this;
    }

    public Builder externalRefJson(String v) {
      externalRefJson = v;
      return this;
    }

    public Builder hourlyUsd(BigDecimal v) {
      hourlyUsd = v;
      return this;
    }

    public Builder estimatedUsd(BigDecimal v) {
      estimatedUsd = v;
      return this;
    }

    public Builder reason(String v) {
      reason = v;
      return this;
    }

    public Builder restarts(int v) {
      restarts = v;
      return this;
    }

    public Builder cancelRequested(boolean v) {
      cancelRequested = v;
      return this;
    }

    /** Also sets {@code updatedAt} when it is not set yet: a new row was last updated then. */
    public Builder createdAt(Instant v) {
      createdAt = v;
      if (updatedAt == null) {
        updatedAt = v;
      }
      return this;
    }

    public Builder updatedAt(Instant v) {
      updatedAt = v;
      return this;
    }

    public Builder submittedAt(Instant v) {
      submittedAt = v;
      return this;
    }

    public Builder startedAt(Instant v) {
      startedAt = v;
      return this;
    }

    public Builder endedAt(Instant v) {
      endedAt = v;
      return this;
    }

    Builder lease(String owner, Instant until) {
      leaseOwner = owner;
      leaseUntil = until;
      return this;
    }

    Builder version(long v) {
      version = v;
      return this;
    }

    public JobRow build() {
      return new JobRow(
          id,
          team,
          ownerSubject,
          ownerUsername,
          name,
          state == null || name == null ? null : liveName(state, name),
          state,
          attempt,
          specJson,
          specHash,
          decisionJson,
          offerIndex,
          backendId,
          externalRefJson,
          hourlyUsd,
          estimatedUsd,
          reason,
          restarts,
          cancelRequested,
          createdAt,
          updatedAt,
          submittedAt,
          startedAt,
          endedAt,
          leaseOwner,
          leaseUntil,
          version);
    }
  }
}
