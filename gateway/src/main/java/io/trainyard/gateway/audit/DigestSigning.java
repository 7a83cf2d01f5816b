package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditChainVerifier;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.DigestPolicy;
import io.trainyard.audit.DigestSigner;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs a digest of the chain when {@link DigestPolicy} says one is due, in the one replica that
 * holds the {@value #LEASE} lease. Before signing, the range is re-chained from the stored events,
 * so that a digest never vouches for a chain that was already broken in the database: that is
 * logged as an error and nothing is signed. Should two replicas ever sign at once (a lease lapsed
 * mid-way), the digest table's keys let only one digest per range in. Not thread-safe: one
 * scheduler thread calls {@link #tick}.
 */
public final class DigestSigning {
  public static final String LEASE = "digest-signer";

  private static final Logger LOG = LoggerFactory.getLogger(DigestSigning.class);

  private final AuditStore store;
  private final AuditLeases leases;
  private final DigestSigner signer;
  private final DigestPolicy policy;
  private final String owner;
  private final Duration lease;
  private final Clock clock;

  public DigestSigning(
      AuditStore store,
      AuditLeases leases,
      DigestSigner signer,
      DigestPolicy policy,
      String owner,
      Duration lease,
      Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.leases = Objects.requireNonNull(leases, "leases");
    this.signer = Objects.requireNonNull(signer, "signer");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.lease = Objects.requireNonNull(lease, "lease");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Signs the next digest if this replica holds the lease and one is due. */
  public Optional<AuditDigest> tick() {
    if (!leases.hold(LEASE, owner, lease)) {
      return Optional.empty();
    }
    var now = clock.instant();
    var last = store.lastDigest().orElse(null);
    var head = store.head();
    long signedTo = last == null ? 0 : last.toSeq();
    if (head.seq() <= signedTo) {
      return Optional.empty();
    }
    var firstUnsigned = last == null ? store.timeOf(1).orElse(now) : null;
    if (!policy.due(last, firstUnsigned, head.seq(), now)) {
      return Optional.empty();
    }
    // Anchored on what the last digest signed, not on what the table says now.
    var anchor = last == null ? AuditChain.GENESIS_HASH : last.lastHash();
    var check = new AuditChainVerifier(signedTo + 1, anchor);
    try (var events = store.events(signedTo + 1, head.seq())) {
      events.forEach(check::accept);
    }
    var report = check.finish(head.seq(), head.hash());
    if (!report.ok()) {
      LOG.error(
          "the stored audit chain is broken, so no digest is signed: {}",
          report.firstProblem().orElseThrow());
      return Optional.empty();
    }
    var digest = signer.next(last, head.seq(), head.hash(), now);
    try {
      store.insertDigest(digest);
    } catch (JdbiException e) {
      // Another signer stored a digest for this range first; ours is not needed.
      LOG.info(
          "digest of seq {}..{} not stored: {}", digest.fromSeq(), digest.toSeq(), e.toString());
      return Optional.empty();
    }
    return Optional.of(digest);
  }
}
