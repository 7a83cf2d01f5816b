package io.trainyard.gateway.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How often a backend has answered {@code Retryable} to one attempt's submit, and when to try
 * again: the delay doubles from {@code firstDelay} up to {@code maxDelay}, and after {@code
 * maxTries} the attempt gives up (the job fails over or fails). Kept per replica in memory: a
 * replica that takes a job over starts counting afresh, which bounds the total at replicas ×
 * maxTries. Thread-safe.
 */
public final class SubmitRetries {
  /**
   * @param maxTries submits of one attempt that may answer Retryable before it gives up
   * @param firstDelay the wait after the first Retryable
   * @param maxDelay the longest wait between two tries
   * @param timeout how long one submit may take before the job moves on without its answer ({@link
   *     BoundedSubmits}); zero for no deadline
   */
  public record Policy(int maxTries, Duration firstDelay, Duration maxDelay, Duration timeout) {
    public static final Policy DEFAULT =
        new Policy(5, Duration.ofSeconds(2), Duration.ofMinutes(1), Duration.ofSeconds(10));

    public Policy {
      if (maxTries < 1) {
        throw new IllegalArgumentException("maxTries must be at least 1");
      }
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("timeout must not be negative");
      }
    }
  }

  private record Key(String jobId, int attempt) {}

  private record Tries(int count, Instant notBefore) {}

  private final Policy policy;
  private final Map<Key, Tries> tries = new ConcurrentHashMap<>();

  SubmitRetries(Policy policy) {
    this.policy = policy;
  }

  /** Whether the attempt is still waiting out its backoff at {@code now}. */
  boolean waiting(String jobId, int attempt, Instant now) {
    var t = tries.get(new Key(jobId, attempt));
    return t != null && now.isBefore(t.notBefore());
  }

  /**
   * Records one more Retryable answer.
   *
   * @return how many tries the attempt has used, or -1 when it may try again
   */
  int failed(String jobId, int attempt, Instant now) {
    var t =
        tries.merge(
            new Key(jobId, attempt),
            new Tries(1, now.plus(delay(1))),
            (old, one) -> new Tries(old.count() + 1, now.plus(delay(old.count() + 1))));
    if (t.count() >= policy.maxTries()) {
      tries.remove(new Key(jobId, attempt));
      return t.count();
    }
    return -1;
  }

  /** Forgets the attempt once it was accepted or moved on. */
  void done(String jobId, int attempt) {
    tries.remove(new Key(jobId, attempt));
  }

  private Duration delay(int count) {
    var delay = policy.firstDelay();
    for (int i = 1; i < count && delay.compareTo(policy.maxDelay()) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(policy.maxDelay()) > 0 ? policy.maxDelay() : delay;
  }
}
