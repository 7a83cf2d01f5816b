package io.trainyard.audit;

/**
 * One record of a chain as the verifier sees it, before any check: its claimed hashes and, for a
 * full event, the hash of its content recomputed. A line that could not be read carries only the
 * reason. Computing {@code contentHash} is the expensive part, so it is done beforehand and may be
 * done in parallel; the checks that follow are sequential and cheap.
 *
 * @param canonical whether the line was already in RFC 8785 form (as exports are written), so that
 *     its bytes were hashed as they are; otherwise it was parsed and canonicalised first
 */
record ChainLine(
    long seq,
    byte[] eventHash,
    byte[] hash,
    byte[] contentHash,
    boolean stub,
    String unreadable,
    boolean canonical) {

  static ChainLine full(long seq, byte[] eventHash, byte[] hash, byte[] contentHash) {
    return new ChainLine(seq, eventHash, hash, contentHash, false, null, true);
  }

  static ChainLine stub(long seq, byte[] eventHash, byte[] hash) {
    return new ChainLine(seq, eventHash, hash, null, true, null, true);
  }

  static ChainLine unreadable(String reason) {
    return new ChainLine(0, null, null, null, false, reason, false);
  }

  /** The same record, marked as read from a line that was not in canonical form. */
  ChainLine notCanonical() {
    return new ChainLine(seq, eventHash, hash, contentHash, stub, unreadable, false);
  }
}
