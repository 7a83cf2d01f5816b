package io.trainyard.spi;

import java.util.Objects;

/**
 * What is waiting ahead of a new job for the capacity of one placement, as far as anyone knows: a
 * count and where the figure came from. Used by the {@code fastest} and {@code cheapest-within}
 * policies after "fits now": fewer waiting ahead starts sooner, an unknown figure ranks last.
 *
 * <p>Immutable and thread-safe.
 *
 * @param count how many are waiting ahead; null when unknown
 * @param unit what is counted, e.g. {@code pods}, {@code jobs}
 * @param source where the figure came from, or why it is unknown, in words for the quote's notes
 */
public record WaitingAhead(Integer count, String unit, String source) {
  public WaitingAhead {
    Objects.requireNonNull(source, "source");
    if (count != null && count < 0) {
      throw new IllegalArgumentException("count must be 0 or more");
    }
    unit = unit == null ? "jobs" : unit;
  }

  /** A known figure. */
  public static WaitingAhead of(int count, String unit, String source) {
    return new WaitingAhead(count, unit, source);
  }

  /** Nothing known; {@code why} says why (the platform's API does not tell, a refused call). */
  public static WaitingAhead unknown(String why) {
    return new WaitingAhead(null, null, why);
  }

  public boolean known() {
    return count != null;
  }

  /** In words, for a quote's notes: "3 pods waiting ahead (source)". */
  public String describe() {
    return (known() ? count + " " + unit + " waiting ahead" : "waiting ahead unknown")
        + " ("
        + source
        + ")";
  }
}
