package io.trainyard.gateway.api;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * {@code GET /v1/audit/verification}: the stored chain re-checked, and each recent day's digests.
 */
public record AuditVerificationView(Chain chain, List<Day> digests) {
  /**
   * @param head the last sequence number stored
   * @param verifiedThrough the chain verifies from seq 1 up to here
   * @param problem the first problem found; null when ok
   */
  public record Chain(
      long head, long verifiedThrough, boolean ok, Instant checkedAt, String problem) {}

  /**
   * One UTC day with audit events or digests.
   *
   * @param signed every event of the day is covered by a signed digest
   * @param verified signed, and each digest covering the day verifies (signature, link to the one
   *     before, the hash it signed still the stored one)
   * @param problem why not verified; null when verified
   */
  public record Day(LocalDate day, boolean signed, boolean verified, String problem) {}
}
