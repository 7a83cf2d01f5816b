package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.BackendException;
import java.util.Locale;

/**
 * Turns the fabric8 client's exceptions into the SPI's typed errors at the edge of the module, so
 * nothing above it matches strings. The API server's own words are kept; no stack traces.
 *
 * <ul>
 *   <li>403 "exceeded quota" (ResourceQuota admission) → {@code CapacityUnavailable}: fail over;
 *   <li>403 or 400/422 from an admission webhook ("admission webhook ... denied the request") →
 *       {@code Rejected} with the webhook's words;
 *   <li>401, and 403 from RBAC on our own identity ("User ... cannot ...") or without a Status body
 *       (an authenticating proxy) → {@code Unauthenticated}: the backend is marked unhealthy;
 *   <li>404 → {@code NotFound}; 409 → {@code Rejected} (callers handle AlreadyExists first);
 *   <li>429, 5xx, timeouts and connection failures (no HTTP answer, code 0 or -1) → {@code
 *       Retryable};
 *   <li>any other 4xx → {@code Rejected}.
 * </ul>
 */
final class KubernetesErrors {
  private KubernetesErrors() {}

  /**
   * @param action what we were doing, e.g. {@code create PyTorchJob nlp/ty-…-a1}; starts the
   *     message
   */
  static BackendException translate(KubernetesClientException e, String action) {
    var words = words(e);
    var message = action + ": " + words;
    var lower = words.toLowerCase(Locale.ROOT);
    var code = e.getCode();
    if (code == 403 && lower.contains("exceeded quota")) {
      return new BackendException.CapacityUnavailable(message, e);
    }
    if (lower.contains("admission webhook") && (code == 400 || code == 403 || code == 422)) {
      return new BackendException.Rejected(message, e);
    }
    if (code == 401 || (code == 403 && (rbac(lower) || e.getStatus() == null))) {
      return new BackendException.Unauthenticated(message, e);
    }
    if (code == 404) {
      return new BackendException.NotFound(message, e);
    }
    if (code <= 0 || code == 429 || code >= 500) {
      return new BackendException.Retryable(message, e);
    }
    return new BackendException.Rejected(message, e);
  }

  static boolean isNotFound(KubernetesClientException e) {
    return e.getCode() == 404;
  }

  static boolean isConflict(KubernetesClientException e) {
    return e.getCode() == 409;
  }

  // RBAC's answer names the identity it refused: 'User "x" cannot create resource ...'.
  private static boolean rbac(String lower) {
    return lower.contains(" cannot ")
        && (lower.contains("user \"")
            || lower.contains("system:serviceaccount")
            || lower.contains("system:anonymous"));
  }

  private static String words(KubernetesClientException e) {
    var status = e.getStatus();
    if (status != null && status.getMessage() != null && !status.getMessage().isBlank()) {
      return status.getMessage();
    }
    var cause = e.getCause();
    if (e.getCode() <= 0 && cause != null && cause.getMessage() != null) {
      return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
    return e.getMessage() == null ? "HTTP " + e.getCode() : firstLine(e.getMessage());
  }

  private static String firstLine(String text) {
    var nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
