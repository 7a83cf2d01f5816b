package io.trainyard.backend.azureml;

import com.azure.core.exception.ClientAuthenticationException;
import io.trainyard.spi.BackendException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns ARM and Blob answers and azure-core's exceptions into the SPI's typed errors at the edge of
 * the module, so nothing above it matches strings. Messages carry Azure's error code and words but
 * no request ids, tokens or stack traces.
 */
final class AzureMlErrorTranslator {
  /** Error codes of ARM, Azure ML and Compute that mean "no capacity or quota now": fail over. */
  static final Set<String> CAPACITY =
      Set.of(
          "QuotaExceeded",
          "ResourceQuotaExceeded",
          "QuotaLimitReached",
          "SkuNotAvailable",
          "AllocationFailed",
          "ZonalAllocationFailed",
          "OverconstrainedAllocationRequest",
          "InsufficientCapacity",
          "CapacityNotAvailable");

  private static final Set<String> CREDENTIALS =
      Set.of(
          "AuthenticationFailed",
          "InvalidAuthenticationToken",
          "InvalidAuthenticationTokenTenant",
          "ExpiredAuthenticationToken",
          "AuthorizationFailed",
          "LinkedAuthorizationFailed");

  private AzureMlErrorTranslator() {}

  /**
   * An error answer (status ≥ 400) of ARM: {@code {"error": {"code", "message", "details"[],
   * "innererror"}}}.
   *
   * @param action what we were doing, e.g. {@code create job ty-…-a1}; starts the message
   */
  static BackendException fromArm(String action, int status, Map<String, Object> body) {
    var error = AzureJson.object(body, "error");
    var codes = codes(error);
    var code = codes.isEmpty() ? null : codes.get(0);
    var words = AzureJson.string(error, "message");
    var message =
        action
            + ": HTTP "
            + status
            + (code == null ? "" : " " + code)
            + (words == null || words.isBlank() ? "" : ": " + words);
    if (status == 429 || codes.contains("TooManyRequests")) {
      return new BackendException.Retryable(message, null);
    }
    if (codes.stream().anyMatch(CAPACITY::contains)) {
      return new BackendException.CapacityUnavailable(message, null);
    }
    if (status == 401 || status == 403 || codes.stream().anyMatch(CREDENTIALS::contains)) {
      return new BackendException.Unauthenticated(message, null);
    }
    if (status == 404) {
      return new BackendException.NotFound(message, null);
    }
    if (status >= 500 || status == 408) {
      return new BackendException.Retryable(message, null);
    }
    return new BackendException.Rejected(message, null);
  }

  /** A call that got no answer, or whose token could not be had. */
  static BackendException fromException(String action, RuntimeException e) {
    if (e instanceof BackendException b) {
      return b;
    }
    if (isCredentialFailure(e)) {
      return new BackendException.Unauthenticated(
          action + ": cannot get an Azure token: " + firstLine(e.getMessage()), e);
    }
    // Connection refused, timeouts, unreadable answers: the same call may work later.
    return new BackendException.Retryable(action + ": " + firstLine(e.getMessage()), e);
  }

  /**
   * Whether a token could not be had: azure-identity's {@link ClientAuthenticationException} (and
   * its CredentialUnavailableException), or MSAL's own exception that azure-core's pipeline hands
   * up wrapped in an ExecutionException.
   */
  private static boolean isCredentialFailure(Throwable e) {
    for (var t = e; t != null; t = t.getCause()) {
      if (t instanceof ClientAuthenticationException
          || t.getClass().getName().startsWith("com.microsoft.aad.msal4j.Msal")) {
        return true;
      }
    }
    return false;
  }

  /** The top code first, then the codes of {@code details} and {@code innererror}. */
  private static List<String> codes(Map<String, Object> error) {
    var codes = new ArrayList<String>();
    var top = AzureJson.string(error, "code");
    if (top != null) {
      codes.add(top);
    }
    for (var detail : AzureJson.list(error, "details")) {
      if (detail instanceof Map<?, ?> d && d.get("code") != null) {
        codes.add(d.get("code").toString());
      }
    }
    var inner = AzureJson.object(error, "innererror");
    if (inner.get("code") != null) {
      codes.add(inner.get("code").toString());
    }
    return codes;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no message";
    }
    var nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
