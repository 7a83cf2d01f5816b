package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Who may see and run an algorithm: its own team only, or every team. */
public enum Visibility {
  TEAM,
  EVERYONE;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static Visibility fromWireName(String value) {
    for (var v : values()) {
      if (v.wireName().equals(value)) {
        return v;
      }
    }
    throw new IllegalArgumentException("must be team or everyone");
  }
}
