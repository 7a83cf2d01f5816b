package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The sensitivity of the data a job reads; `phi` needs a HIPAA-eligible backend. */
public enum DataClassification {
  PUBLIC("public"),
  INTERNAL("internal"),
  PII("pii"),
  PHI("phi");

  private final String wireName;

  DataClassification(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static DataClassification fromWireName(String value) {
    return WireEnums.parse(DataClassification.class, value, DataClassification::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
