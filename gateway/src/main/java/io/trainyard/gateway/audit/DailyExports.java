package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditActor;
import io.trainyard.audit.ExportFilter;
import io.trainyard.audit.ExportFormat;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * Exports each finished UTC day's events as JSON Lines under {@code daily-YYYY-MM-DD}, in the one
 * replica that holds the {@value #LEASE} lease; the last day done is kept with the lease, so a day
 * is exported once whichever replica does it. A gateway that was down for days exports only the day
 * before its return: older days remain exportable on demand. Not thread-safe: one scheduler thread
 * calls {@link #tick}.
 */
public final class DailyExports {
  public static final String LEASE = "daily-export";

  static final AuditActor EXPORTER = AuditActor.system("exporter");

  private final AuditExports exports;
  private final AuditStore store;
  private final AuditLeases leases;
  private final String owner;
  private final Duration lease;
  private final Clock clock;

  public DailyExports(
      AuditExports exports,
      AuditStore store,
      AuditLeases leases,
      String owner,
      Duration lease,
      Clock clock) {
    this.exports = Objects.requireNonNull(exports, "exports");
    this.store = Objects.requireNonNull(store, "store");
    this.leases = Objects.requireNonNull(leases, "leases");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.lease = Objects.requireNonNull(lease, "lease");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Exports yesterday if it is due and this replica holds the lease.
   *
   * @return the name of the export written, or null
   */
  public String tick() {
    var yesterday = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(1);
    var done = leases.lastDone(LEASE);
    if (done.isPresent() && !LocalDate.parse(done.get()).isBefore(yesterday)) {
      return null;
    }
    if (!leases.hold(LEASE, owner, lease)) {
      return null;
    }
    var from = yesterday.atStartOfDay().toInstant(ZoneOffset.UTC);
    var to = from.plus(Duration.ofDays(1));
    var name = "daily-" + yesterday;
    String written = null;
    if (store.seqRange(from, to).isPresent()) {
      try {
        exports.export(
            EXPORTER,
            new AuditExports.Request(name, from, to, ExportFilter.ALL, ExportFormat.JSONL));
        written = name;
      } catch (ApiException e) {
        if (e.code() != ErrorCode.NOT_FOUND) {
          throw e;
        }
      }
    }
    leases.markDone(LEASE, owner, yesterday.toString());
    return written;
  }
}
