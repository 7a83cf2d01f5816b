package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.TrainingJob;
import java.util.List;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels the attempts jobs have left that may have left an object on their backend ({@link
 * StaleAttempts}): each in its backend's lane, at most {@link #PER_PASS} a pass, once the backend
 * is not known to be down. A backend no longer configured cannot be asked: the attempt is given up,
 * saying so in the job's events and the audit log.
 */
final class LeftAttempts {
  private static final Logger LOG = LoggerFactory.getLogger(LeftAttempts.class);

  /** Left attempts a pass looks at; more wait for the next pass. */
  static final int PER_PASS = 20;

  private final JobStore store;
  private final BackendRegistry backends;
  private final StoredJson json;
  private final TeamDirectory teams;
  private final BiPredicate<String, Integer> submitInFlight;

  /**
   * @param submitInFlight whether this replica's submit of (job, attempt) was left unanswered and
   *     has not returned yet: its clean-up waits for it ({@link BoundedSubmits})
   */
  LeftAttempts(
      JobStore store,
      BackendRegistry backends,
      StoredJson json,
      TeamDirectory teams,
      BiPredicate<String, Integer> submitInFlight) {
    this.submitInFlight = submitInFlight;
    this.store = store;
    this.backends = backends;
    this.json = json;
    this.teams = teams;
  }

  /** The left attempts to look at in this pass, longest left first. */
  List<StaleAttempts.Left> due() {
    return store.staleAttempts().list(PER_PASS);
  }

  /** Cancels {@code left} on its backend and forgets it; on trouble, tries again next pass. */
  void cleanUp(StaleAttempts.Left left, String owner) {
    var what = "attempt " + left.attempt() + " on " + left.backendId();
    var entry = backends.find(left.backendId());
    if (entry.isEmpty()) {
      store
          .staleAttempts()
          .forget(
              left,
              false,
              what
                  + " was left and its backend is no longer configured; its object, if any, was"
                  + " not cleaned up",
              owner);
      return;
    }
    if (backends.unavailableReason(left.backendId()) != null
        || submitInFlight.test(left.jobId(), left.attempt())) {
      return; // asked again once the backend is back, or the submit has returned
    }
    var job = store.find(left.jobId()).orElseThrow();
    try {
      entry.get().backend().cancelAttempt(attempt(job, left.attempt(), left.backendId(), null));
    } catch (BackendException.Unauthenticated e) {
      backends.markUnhealthy(left.backendId(), e.getMessage());
      store.staleAttempts().postpone(left);
      return;
    } catch (BackendException.Retryable e) {
      LOG.info(
          "job {}: could not clean up {} it left yet; trying again later: {}",
          left.jobId(),
          what,
          LogEscape.of(String.valueOf(e.getMessage())));
      // Behind the others, so that one that keeps failing does not hold up the rest.
      store.staleAttempts().postpone(left);
      return;
    } catch (RuntimeException e) {
      // Refused for good (or a fault of ours): asking again would get the same answer.
      store
          .staleAttempts()
          .forget(
              left, false, what + " was left and could not be cancelled: " + e.getMessage(), owner);
      LOG.warn(
          "job {}: gave up cleaning up {} it left", left.jobId(), what, LogEscape.throwable(e));
      return;
    }
    if (store
        .staleAttempts()
        .forget(
            left,
            true,
            what + " was left while its object may have existed: cancelled there, if it did",
            owner)) {
      LOG.info("job {}: cleaned up {}, which it had left", left.jobId(), what);
    }
  }

  /**
   * Attempt {@code attempt} of {@code job} on {@code backendId} as that backend receives it.
   *
   * @param placement the offer's placement; null where only the attempt's identity matters
   */
  BackendJob attempt(JobRow job, int attempt, String backendId, Placement placement) {
    var spec = json.read(job.specJson(), TrainingJob.class);
    return new BackendJob(
        job.id(),
        attempt,
        job.team(),
        job.ownerUsername(),
        job.name(),
        spec.spec(),
        job.specHash(),
        placement,
        teams.settings(job.team(), backendId));
  }
}
