package io.trainyard.gateway.reconcile;

import io.opentelemetry.context.Context;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

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
 * <p>At most {@link #MAX_UNANSWERED} calls per backend are left waiting; beyond that a submit is
 * refused at once without calling the backend, so a hung backend cannot take threads without bound.
 * A zero timeout calls the backend on the caller's thread, without a deadline. Thread-safe.
 */
final class BoundedSubmits {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedSubmits.class);

  /** Unanswered submits per backend before further ones are refused without a call. */
  static final int MAX_UNANSWERED = 8;

  /** The submit did not answer in time, or too many before it are still unanswered. */
  static final class NoAnswer extends RuntimeException {
    NoAnswer(String message) {
      super(message, null, false, false);
    }
  }

  private record Key(String jobId, int attempt) {}

  private final Duration timeout;
  private final Map<String, AtomicInteger> unanswered = new ConcurrentHashMap<>();
  private final Set<Key> inFlight = ConcurrentHashMap.newKeySet();
  private final ExecutorService calls;

  BoundedSubmits(Duration timeout) {
    this.timeout = timeout;
    this.calls =
        timeout.isZero()
            ? null
            : Executors.newCachedThreadPool(
                r -> {
                  var t = new Thread(r, "backend-submit");
                  t.setDaemon(true);
                  return t;
                });
  }

  /**
   * {@code backend.submit(attempt)}, answered within the timeout.
   *
   * @throws NoAnswer when it was not (the call goes on without its caller)
   */
  ExternalRef submit(String backendId, TrainingBackend backend, BackendJob attempt) {
    if (calls == null) {
      return backend.submit(attempt);
    }
    var waiting = unanswered.computeIfAbsent(backendId, id -> new AtomicInteger());
    if (waiting.get() >= MAX_UNANSWERED) {
      throw new NoAnswer(
          waiting.get() + " earlier submits to " + backendId + " have not answered yet");
    }
    var key = new Key(attempt.jobId(), attempt.attempt());
    inFlight.add(key);
    var mdc = MDC.getCopyOfContextMap();
    Future<ExternalRef> answer =
        calls.submit(
            Context.current()
                .wrap(
                    () -> {
                      if (mdc != null) {
                        MDC.setContextMap(mdc);
                      }
                      try {
                        return backend.submit(attempt);
                      } finally {
                        MDC.clear();
                      }
                    }));
    try {
      var ref = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      inFlight.remove(key);
      return ref;
    } catch (TimeoutException e) {
      waiting.incrementAndGet();
      calls.execute(() -> awaitLate(answer, key, waiting, backend, attempt));
      throw new NoAnswer("no answer to the submit within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      inFlight.remove(key);
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      // Stopping: the job keeps this attempt (the next replica submits it again, idempotently),
      // so a late object is its own and is not cancelled.
      answer.cancel(true);
      inFlight.remove(key);
      Thread.currentThread().interrupt();
      throw new BackendException.Retryable("the submit was interrupted: stopping", null);
    }
  }

  /** Whether a submit of this attempt was left unanswered and has not returned since. */
  boolean inFlight(String jobId, int attempt) {
    return inFlight.contains(new Key(jobId, attempt));
  }

  /** Waits, on a thread of the pool, for a submit its caller has given up on. */
  private void awaitLate(
      Future<ExternalRef> answer,
      Key key,
      AtomicInteger waiting,
      TrainingBackend backend,
      BackendJob attempt) {
    try {
      var ref = answer.get();
      LOG.info(
          "job {}: the submit of attempt {} answered after its caller gave up; cancelling {}",
          key.jobId(),
          key.attempt(),
          LogEscape.of(ref.name()));
      backend.cancelAttempt(attempt);
    } catch (ExecutionException e) {
      LOG.info(
          "job {}: the submit of attempt {} failed after its caller gave up: {}",
          key.jobId(),
          key.attempt(),
          LogEscape.of(String.valueOf(e.getCause().getMessage())));
    } catch (RuntimeException e) {
      LOG.warn(
          "job {}: could not cancel attempt {}, which answered late; its clean-up will try again",
          key.jobId(),
          key.attempt(),
          LogEscape.throwable(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      waiting.decrementAndGet();
      inFlight.remove(key);
    }
  }
}
