package io.trainyard.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When the next digest is due: after {@code everyEvents} new events or {@code everyDuration} since
 * the last digest, whichever comes first, and never for an empty range. Which replica signs (one
 * leased signer) is the gateway's business; this only answers "now?".
 */
public record DigestPolicy(long everyEvents, Duration everyDuration) {
  /** Every 1,000 events or 15 minutes. */
  public static final DigestPolicy DEFAULT = new DigestPolicy(1_000, Duration.ofMinutes(15));

  public DigestPolicy {
    if (everyEvents < 1) {
      throw new IllegalArgumentException("everyEvents must be at least 1");
    }
    Objects.requireNonNull(everyDuration, "everyDuration");
    if (everyDuration.isNegative() || everyDuration.isZero()) {
      throw new IllegalArgumentException("everyDuration must be positive");
    }
  }

  /**
   * @param lastSignedSeq {@code toSeq} of the last digest, 0 if none
   * @param lastSignedAt when the last digest was signed; with none, when the first unsigned event
   *     was written
   * @param headSeq the chain's last seq
   */
  public boolean due(long lastSignedSeq, Instant lastSignedAt, long headSeq, Instant now) {
    long unsigned = headSeq - lastSignedSeq;
    if (unsigned <= 0) {
      return false;
    }
    return unsigned >= everyEvents
        || Duration.between(lastSignedAt, now).compareTo(everyDuration) >= 0;
  }

  /** {@link #due(long, Instant, long, Instant)} after {@code last}, or with none yet. */
  public boolean due(AuditDigest last, Instant firstEventTime, long headSeq, Instant now) {
    return last == null
        ? due(0, firstEventTime, headSeq, now)
        : due(last.toSeq(), last.time(), headSeq, now);
  }
}
