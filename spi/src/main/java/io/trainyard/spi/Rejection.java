package io.trainyard.spi;

import java.util.Objects;

/** Why a backend cannot run a job in some way, in words shown to the user. */
public record Rejection(String backendId, String reason) {
  public Rejection {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(reason, "reason");
  }
}
