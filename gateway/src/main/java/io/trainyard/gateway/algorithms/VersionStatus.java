package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Where a published version stands: runnable, runnable with a warning (deprecated), or refused to
 * new jobs (withdrawn; jobs already running keep running).
 */
public enum VersionStatus {
  ACTIVE,
  DEPRECATED,
  WITHDRAWN;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
