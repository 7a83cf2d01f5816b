package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditChainVerifier;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.DigestKeyRing;
import io.trainyard.audit.DigestVerifier;
import io.trainyard.gateway.api.AuditVerificationView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code GET /v1/audit/verification}: the whole stored chain re-chained from seq 1 (as the digest
 * signer and the offline verifier do), and each recent UTC day's digests checked: signature by a
 * trusted key, link to the digest before, and the hash they signed still the one stored. A result
 * is kept for {@link #CHAIN_REUSE} while the head has not moved. Reading every event is the costly
 * part, and a busy chain moves every second: after an intact check, the next ones chain only the
 * events appended since, from the hash they ended in, and the whole chain is read again at most
 * every {@link #FULL_CHECK_EVERY} (a stored event changed behind the database's back is found
 * then). Thread-safe.
 */
public final class AuditVerification {
  static final Duration CHAIN_REUSE = Duration.ofSeconds(30);
  static final Duration FULL_CHECK_EVERY = Duration.ofMinutes(10);

  private final AuditStore store;
  private final DigestKeyRing keys;
  private final Clock clock;
  private AuditVerificationView.Chain last;
  private String lastHash;
  private Instant lastFullCheck;

  public AuditVerification(AuditStore store, AuditKeys keys, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    var ring = DigestKeyRing.of(List.of(keys.signer().publicKey()));
    this.keys = keys.previousKeys() == null ? ring : ring.and(keys.previousKeys());
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * @param days how many UTC days back from today to report digests for
   */
  public AuditVerificationView verify(int days) {
    return new AuditVerificationView(chain(), digests(days));
  }

  private synchronized AuditVerificationView.Chain chain() {
    var now = clock.instant();
    var head = store.head();
    if (last != null
        && last.head() == head.seq()
        && Duration.between(last.checkedAt(), now).compareTo(CHAIN_REUSE) < 0) {
      return last;
    }
    // Only on from an intact check whose head is still in the chain, and not for too long.
    boolean onFromLast =
        last != null
            && last.ok()
            && last.head() > 0
            && head.seq() >= last.head()
            && Duration.between(lastFullCheck, now).compareTo(FULL_CHECK_EVERY) < 0;
    long from = onFromLast ? last.head() + 1 : 1;
    var check = new AuditChainVerifier(from, onFromLast ? lastHash : AuditChain.GENESIS_HASH);
    if (head.seq() >= from) {
      try (var events = store.events(from, head.seq())) {
        events.forEach(check::accept);
      }
    }
    var report = check.finish(head.seq(), head.hash());
    var bad = report.firstBadSeq();
    last =
        new AuditVerificationView.Chain(
            head.seq(),
            bad.isPresent() ? Math.max(0, bad.getAsLong() - 1) : head.seq(),
            report.ok(),
            now,
            report.firstProblem().map(f -> "seq " + f.seq() + ": " + f.problem()).orElse(null));
    lastHash = head.hash();
    if (!onFromLast) {
      lastFullCheck = now;
    }
    return last;
  }

  private List<AuditVerificationView.Day> digests(int days) {
    var all = store.digests();
    long signedTo = all.isEmpty() ? 0 : all.get(all.size() - 1).toSeq();
    var today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    var result = new ArrayList<AuditVerificationView.Day>();
    for (int back = 0; back < days; back++) {
      var day = today.minusDays(back);
      var from = day.atStartOfDay().toInstant(ZoneOffset.UTC);
      var to = day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
      var events = store.seqRange(from, to);
      var covering = new ArrayList<Integer>();
      for (int i = 0; i < all.size(); i++) {
        var d = all.get(i);
        boolean signedThatDay = !d.time().isBefore(from) && d.time().isBefore(to);
        boolean coversEvents =
            events.isPresent() && d.toSeq() >= events.get()[0] && d.fromSeq() <= events.get()[1];
        if (signedThatDay || coversEvents) {
          covering.add(i);
        }
      }
      if (events.isEmpty() && covering.isEmpty()) {
        continue;
      }
      boolean signed = events.isEmpty() || events.get()[1] <= signedTo;
      String problem = null;
      for (int i : covering) {
        var p = problem(all, i);
        if (p.isPresent()) {
          var d = all.get(i);
          problem = "digest of seq " + d.fromSeq() + ".." + d.toSeq() + ": " + p.get();
          break;
        }
      }
      if (problem == null && !signed) {
        problem =
            "events "
                + Math.max(events.get()[0], signedTo + 1)
                + ".."
                + events.get()[1]
                + " are not covered by a signed digest yet";
      }
      result.add(new AuditVerificationView.Day(day, signed, problem == null, problem));
    }
    return result;
  }

  private Optional<String> problem(List<AuditDigest> all, int i) {
    var d = all.get(i);
    var own = keys.problem(d);
    if (own.isPresent()) {
      return own;
    }
    if (i == 0 && (d.fromSeq() != 1 || d.previousDigestSignature() != null)) {
      return Optional.of("the first digest does not start the chain");
    }
    if (i > 0) {
      var link = DigestVerifier.linkProblem(all.get(i - 1), d);
      if (link.isPresent()) {
        return link;
      }
    }
    String stored;
    try {
      stored = store.hashAt(d.toSeq());
    } catch (IllegalStateException e) {
      return Optional.of("the event seq " + d.toSeq() + " it signed is missing");
    }
    if (!d.lastHash().equals(stored)) {
      return Optional.of("the stored hash of seq " + d.toSeq() + " is not the one signed");
    }
    return Optional.empty();
  }
}
