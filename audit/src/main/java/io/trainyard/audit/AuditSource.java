package io.trainyard.audit;

import java.util.List;
import java.util.stream.Stream;

/**
 * Where {@link AuditExporter} reads the chain from: the gateway's audit tables. Implementations
 * read one consistent snapshot per export if they can (one repeatable-read transaction); the
 * exporter checks the chain as it writes, so a torn read is noticed, not exported silently.
 */
public interface AuditSource {
  /** {@code hash} of event {@code seq}; {@link AuditChain#GENESIS_HASH} for seq 0. */
  String hashAt(long seq);

  /**
   * Events {@code fromSeq..toSeq} in seq order, every one of them. The exporter closes the stream,
   * so a database cursor behind it is released.
   */
  Stream<ChainedEvent> events(long fromSeq, long toSeq);

  /** Digests whose {@code toSeq} is within {@code fromSeq..toSeq}, in seq order. */
  List<AuditDigest> digestsEndingBetween(long fromSeq, long toSeq);
}
