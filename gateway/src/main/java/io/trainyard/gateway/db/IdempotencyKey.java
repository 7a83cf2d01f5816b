package io.trainyard.gateway.db;

import java.util.Objects;

/**
 * An {@code Idempotency-Key} as stored: scoped to the caller (team and subject), so two callers
 * choosing the same key never see each other's jobs.
 *
 * @param specHash the hash of the spec first sent with this key; a retry with another spec is a
 *     conflict, not a retry
 */
public record IdempotencyKey(String team, String subject, String key, String specHash) {
  public IdempotencyKey {
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(specHash, "specHash");
  }
}
