package io.trainyard.audit;

/**
 * One record of a chain as the verifier sees it, before any check: its claimed hashes and, for a
 * full event, the hash of its content recomputed. A line that could not be read carries only the
 * reason. Computing {@code contentHash} is the expensive part, so it is done beforehand and may be
 * done in parallel; the checks that follow are sequential and cheap.
 */
record ChainLine(
    long seq, byte[] eventHash, byte[] hash, byte[] contentHash, boolean stub, String unreadable) {

  static ChainLine full(long seq, byte[] eventHash, byte[] hash, byte[] contentHash) {
    return new ChainLine(seq, eventHash, hash, contentHash, false, null);
  }

  static ChainLine stub(long seq, byte[] eventHash, byte[] hash) {
    return new ChainLine(seq, eventHash, hash, null, true, null);
  }

  static ChainLine unreadable(String reason) {
    return new ChainLine(0, null, null, null, false, reason);
  }
}
