package io.trainyard.spi;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The states of a job, and the one place that says which transitions are allowed (DESIGN.md's
 * table). Every state write goes through {@link #requireTransition}.
 */
public enum JobState {
  /** No offer can take it now (capacity, budget); re-quoted when that changes. */
  QUEUED,
  /** Routed to an offer; the reconciler will submit the current attempt. */
  PENDING,
  /** The backend accepted the attempt; not running yet. */
  SUBMITTED,
  RUNNING,
  /** Cancel requested of a submitted attempt; waiting for the backend to confirm. */
  CANCELLING,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  private static final Map<JobState, Set<JobState>> ALLOWED =
      Map.of(
          QUEUED, EnumSet.of(PENDING, CANCELLED),
          PENDING, EnumSet.of(SUBMITTED, QUEUED, FAILED, CANCELLED),
          SUBMITTED, EnumSet.of(RUNNING, PENDING, FAILED, CANCELLING),
          RUNNING, EnumSet.of(SUCCEEDED, FAILED, SUBMITTED, CANCELLING),
          CANCELLING, EnumSet.of(CANCELLED, SUCCEEDED, FAILED),
          SUCCEEDED, EnumSet.noneOf(JobState.class),
          FAILED, EnumSet.noneOf(JobState.class),
          CANCELLED, EnumSet.noneOf(JobState.class));

  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }

  public boolean canMoveTo(JobState next) {
    return ALLOWED.get(this).contains(next);
  }

  /** The states reachable from this one. */
  public Set<JobState> next() {
    return Set.copyOf(ALLOWED.get(this));
  }

  /**
   * @throws IllegalTransitionException when DESIGN.md's table does not allow {@code from → to}
   */
  public static void requireTransition(JobState from, JobState to) {
    if (!from.canMoveTo(to)) {
      throw new IllegalTransitionException(from, to);
    }
  }

  /** A transition the state machine refuses: a bug or a lost race, never user input. */
  public static final class IllegalTransitionException extends IllegalStateException {
    public IllegalTransitionException(JobState from, JobState to) {
      super("a job cannot move from " + from + " to " + to);
    }
  }
}
