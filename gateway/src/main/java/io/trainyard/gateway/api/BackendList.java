package io.trainyard.gateway.api;

import java.util.List;

/** {@code GET /v1/backends}. */
public record BackendList(List<Backend> backends) {
  /** One configured backend and its health. */
  public record Backend(
      String id,
      String kind,
      String region,
      boolean hipaaEligible,
      boolean healthy,
      String message) {}
}
