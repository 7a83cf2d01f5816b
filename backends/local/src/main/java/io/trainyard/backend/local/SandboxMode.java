package io.trainyard.backend.local;

import java.util.Locale;

/**
 * How the local backend keeps a job's replicas away from the gateway that starts them.
 *
 * <ul>
 *   <li>{@code USERS}: the gateway runs as root; each attempt's replicas run as a uid of their own
 *       from {@link LocalConfig#uidRange()}, so file permissions and {@code /proc} keep them out of
 *       the gateway's data, keys and environment.
 *   <li>{@code BUBBLEWRAP}: {@code bwrap} gives the replicas a private PID namespace (the gateway's
 *       processes are not in their {@code /proc}), a read-only view of the system with the
 *       gateway's data directory hidden, and only the attempt's scratch directory writable. A root
 *       gateway first drops to the attempt's own uid, as {@code USERS} does: bwrap alone would run
 *       the replicas as root.
 *   <li>{@code NONE}: replicas run as the gateway's own user; allowed in dev mode only.
 *   <li>{@code AUTO}: {@code USERS} as root, else {@code BUBBLEWRAP} where it works, else {@code
 *       NONE}.
 * </ul>
 *
 * Every mode but {@code NONE} also gives each attempt its own network namespace, whose loopback its
 * replicas share and from which the gateway's ports cannot be reached.
 */
public enum SandboxMode {
  AUTO,
  USERS,
  BUBBLEWRAP,
  NONE;

  static SandboxMode parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "sandbox must be auto, users, bubblewrap or none, not '" + text + "'", e);
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
