package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The type of one hyperparameter of an algorithm's schema, as written on the wire. */
public enum HyperparameterType {
  INT,
  FLOAT,
  STRING,
  BOOL,
  ENUM;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static HyperparameterType fromWireName(String value) {
    for (var t : values()) {
      if (t.wireName().equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException("must be one of int, float, string, bool, enum");
  }
}
