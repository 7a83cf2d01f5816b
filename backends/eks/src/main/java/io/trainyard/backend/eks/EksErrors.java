package io.trainyard.backend.eks;

import io.trainyard.spi.BackendException;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * Turns the AWS SDK's exceptions from reaching the cluster ({@code DescribeCluster}, {@code
 * AssumeRole}, resolving credentials) into the SPI's typed errors, so nothing above the module
 * matches strings. Messages carry AWS's own words, no request ids or stack traces.
 *
 * <ul>
 *   <li>our identity refused or missing (401/403, expired or unknown keys, no credentials found) →
 *       {@code Unauthenticated}: the backend is marked unhealthy;
 *   <li>everything else, a missing cluster too → {@code Retryable}: a cluster being created, a
 *       throttled or unreachable API may answer later, and the health check reports the reason
 *       meanwhile. Nothing here is the job's fault, so nothing is {@code Rejected}.
 * </ul>
 */
final class EksErrors {
  private static final Set<String> CREDENTIALS =
      Set.of(
          "ExpiredToken",
          "ExpiredTokenException",
          "UnrecognizedClientException",
          "InvalidClientTokenId",
          "InvalidSignatureException",
          "SignatureDoesNotMatch",
          "IncompleteSignature",
          "MissingAuthenticationToken",
          "AccessDeniedException",
          "AccessDenied");

  private EksErrors() {}

  /**
   * @param action what we were doing, e.g. {@code DescribeCluster ml-prod}; starts the message
   */
  static BackendException translate(SdkException e, String action) {
    var message = action + ": " + words(e);
    if (refusesIdentity(e)) {
      return new BackendException.Unauthenticated(message, e);
    }
    return new BackendException.Retryable(message, e);
  }

  /** Whether AWS refused (or could not find) the identity we act as. */
  static boolean refusesIdentity(SdkException e) {
    if (e instanceof AwsServiceException s) {
      var details = s.awsErrorDetails();
      var code = details == null ? null : details.errorCode();
      // Set.of's contains throws for null: an answer without a code (a proxy's 503) has none.
      return (code != null && CREDENTIALS.contains(code))
          || s.statusCode() == 401
          || s.statusCode() == 403;
    }
    var m = e.getMessage();
    return e instanceof SdkClientException
        && m != null
        && m.toLowerCase(Locale.ROOT).contains("unable to load credentials");
  }

  /** AWS's words for the error: code and message of a service error, else the client's message. */
  static String words(SdkException e) {
    if (e instanceof ResourceNotFoundException) {
      return "no such cluster (ResourceNotFoundException)";
    }
    if (e instanceof AwsServiceException s && s.awsErrorDetails() != null) {
      var details = s.awsErrorDetails();
      var code = details.errorCode();
      var text = details.errorMessage();
      return (code == null ? "HTTP " + s.statusCode() : code) + (text == null ? "" : ": " + text);
    }
    return e.getMessage();
  }
}
