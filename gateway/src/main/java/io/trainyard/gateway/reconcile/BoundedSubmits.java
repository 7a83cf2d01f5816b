package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.backends.BoundedCalls;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits with a deadline, so that a backend whose calls hang (a cluster or cloud API that accepts
 * the connection and never answers) holds a job no longer than {@code timeout}, not until its
 * client's own timeouts and retries give up (fabric8: three tries of 10 s; the AWS SDK: minutes).
 *
 * <p>A submit that has not answered by then is left to finish on its own thread and the caller gets
 * {@link NoAnswer}: the job moves on and the attempt it leaves is recorded for clean-up like any
 * other. The call may still reach the backend and make the object after all, so:
 *
 * <ul>
 *   <li>while it has not returned, the attempt counts as {@linkplain #inFlight in flight} and its
 *       clean-up waits — a clean-up before a late create would find nothing and leave the late
 *       object running;
 *   <li>when it returns with an object, that object is cancelled at once, from the call's thread:
 *       the job has left the attempt for good (attempt numbers only grow), and another replica may
 *       have cleaned up before the object existed.
 * </ul>
 *
 * <p>At most {@link #MAX_UNANSWERED} calls per backend are left waiting ({@link BoundedCalls});
 * beyond that a submit is refused at once without calling the backend. A zero timeout calls the
 * backend on the caller's thread, without a deadline. Thread-safe.
 */
final class BoundedSubmits {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedSubmits.class);

  /** Unanswered submits per backend before further ones are refused without a call. */
  static final int MAX_UNANSWERED = 8;

  private record Key(String jobId, int attempt) {}

  private final Duration timeout;
  private final Set<Key> inFlight = ConcurrentHashMap.newKeySet();
  private final BoundedCalls calls;

  BoundedSubmits(Duration timeout) {
    this.timeout = timeout;
    this.calls = timeout.isZero() ? null : new BoundedCalls("backend-submit", MAX_UNANSWERED);
  }

  /**
   * {@code backend.submit(attempt)}, answered within the timeout.
   *
   * @throws BoundedCalls.NoAnswer when it was not (the call goes on without its caller)
   */
  ExternalRef submit(String backendId, TrainingBackend backend, BackendJob attempt) {
    if (calls == null) {
      return backend.submit(attempt);
    }
    var key = new Key(attempt.jobId(), attempt.attempt());
    var pending =
        calls.start(
            backendId,
            () -> backend.submit(attempt),
            (ref, failure) -> answeredLate(key, backend, attempt, ref, failure));
    inFlight.add(key);
    try {
      var ref = pending.await(System.nanoTime() + timeout.toNanos(), timeout);
      inFlight.remove(key);
      return ref;
    } catch (BoundedCalls.NoAnswer e) {
      throw new BoundedCalls.NoAnswer(
          "no answer to the submit within " + timeout.toMillis() + " ms");
    } catch (RuntimeException | Error e) {
      // Refused, failed, or interrupted (stopping: the job keeps this attempt, and the next replica
      // submits it again, idempotently).
      inFlight.remove(key);
      throw e;
    }
  }

  /** Whether a submit of this attempt was left unanswered and has not returned since. */
  boolean inFlight(String jobId, int attempt) {
    return inFlight.contains(new Key(jobId, attempt));
  }

  /** A submit its caller gave up on has returned: what it made is cancelled at once. */
  private void answeredLate(
      Key key, TrainingBackend backend, BackendJob attempt, ExternalRef ref, Throwable failure) {
    try {
      if (failure != null) {
        LOG.info(
            "job {}: the submit of attempt {} failed after its caller gave up: {}",
            key.jobId(),
            key.attempt(),
            LogEscape.of(String.valueOf(failure.getMessage())));
        return;
      }
      LOG.info(
          "job {}: the submit of attempt {} answered after its caller gave up; cancelling {}",
          key.jobId(),
          key.attempt(),
          LogEscape.of(ref.name()));
      backend.cancelAttempt(attempt);
    } catch (RuntimeException e) {
      LOG.warn(
          "job {}: could not cancel attempt {}, which answered late; its clean-up will try again",
          key.jobId(),
          key.attempt(),
          LogEscape.throwable(e));
    } finally {
      inFlight.remove(key);
    }
  }
}
