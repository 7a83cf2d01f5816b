package io.trainyard.audit;

import java.util.Locale;

/** How the audited action ended. Written in lower case in records and exports. */
public enum Outcome {
  SUCCESS,
  /** It was allowed but did not work (a backend refused, a timeout). */
  FAILURE,
  /** It was refused: authentication, authorization, budget or policy said no. */
  DENIED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException for anything but the three wire names
   */
  public static Outcome fromWireName(String name) {
    for (var outcome : values()) {
      if (outcome.wireName().equals(name)) {
        return outcome;
      }
    }
    throw new IllegalArgumentException("unknown outcome: " + name);
  }
}
