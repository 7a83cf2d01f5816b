package io.trainyard.audit;

import java.util.Objects;

/**
 * One thing a verifier found wrong.
 *
 * @param seq the first sequence number the problem puts in doubt; 0 when it concerns the export as
 *     a whole (its manifest, a file) rather than an event
 * @param problem what is wrong, in words for the auditor
 */
public record Finding(long seq, String problem) {
  public Finding {
    if (seq < 0) {
      throw new IllegalArgumentException("seq < 0");
    }
    Objects.requireNonNull(problem, "problem");
  }

  public boolean concernsAnEvent() {
    return seq > 0;
  }

  @Override
  public String toString() {
    return (seq > 0 ? "seq " + seq + ": " : "export: ") + problem;
  }
}
