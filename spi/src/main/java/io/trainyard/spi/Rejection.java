package io.trainyard.spi;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Why a backend cannot run a job in some way, in words shown to the user, and whether that could
 * change ({@link Kind}). The gateway refuses a job ({@code 422}) only when every rejection is
 * {@link Kind#NEVER}; a job with a {@link Kind#NOT_NOW} rejection waits QUEUED and is quoted again.
 *
 * @param kind {@link Kind#NEVER} when the spec cannot fit this backend whatever happens (no
 *     instance type large enough, a framework or field it does not support); {@link Kind#NOT_NOW}
 *     when it could once something changes (unhealthy, no free capacity, a quota)
 */
public record Rejection(String backendId, String reason, Kind kind) {
  /** Whether waiting could help. */
  public enum Kind {
    /** The spec can never run here as configured: refusing it at once is right. */
    NEVER("never"),
    /** Not now: the backend is down, full, or over a quota; the job may wait for it. */
    NOT_NOW("not-now");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
      return wireName;
    }
  }

  public Rejection {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(kind, "kind");
  }

  /** A rejection for good: the spec does not fit this backend's configuration. */
  public Rejection(String backendId, String reason) {
    this(backendId, reason, Kind.NEVER);
  }

  /** A rejection that may lift: capacity, health or a quota. */
  public static Rejection notNow(String backendId, String reason) {
    return new Rejection(backendId, reason, Kind.NOT_NOW);
  }
}
