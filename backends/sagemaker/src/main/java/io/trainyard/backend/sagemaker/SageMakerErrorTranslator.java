package io.trainyard.backend.sagemaker;

import io.trainyard.spi.BackendException;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns the AWS SDK's exceptions into the SPI's typed errors, at the edge of the module, so nothing
 * above it matches strings. Messages carry AWS's own words but no request ids or stack traces.
 */
final class SageMakerErrorTranslator {
  private static final Set<String> THROTTLING =
      Set.of(
          "ThrottlingException",
          "Throttling",
          "TooManyRequestsException",
          "RequestLimitExceeded",
          "SlowDown");
  private static final Set<String> CAPACITY =
      Set.of(
          "ResourceLimitExceeded",
          "LimitExceededException",
          "ServiceQuotaExceededException",
          "CapacityError",
          "InsufficientCapacityError");
  private static final Set<String> NOT_FOUND =
      Set.of("ResourceNotFound", "ResourceNotFoundException");
  private static final Set<String> CREDENTIALS =
      Set.of(
          "ExpiredToken",
          "ExpiredTokenException",
          "UnrecognizedClientException",
          "InvalidClientTokenId",
          "InvalidAccessKeyId",
          "InvalidSignatureException",
          "SignatureDoesNotMatch",
          "IncompleteSignature",
          "MissingAuthenticationToken",
          "AccessDeniedException",
          "AccessDenied",
          "NotAuthorized");
  static final String RESOURCE_IN_USE = "ResourceInUse";

  private SageMakerErrorTranslator() {}

  /**
   * @param action what we were doing, e.g. {@code create training job ty-…-a1}; starts the message
   */
  static BackendException translate(SdkException e, String action) {
    if (e instanceof AwsServiceException service) {
      return service(service, action);
    }
    var message = action + ": " + e.getMessage();
    if (e instanceof SdkClientException && isMissingCredentials(e)) {
      return new BackendException.Unauthenticated(message, e);
    }
    // Connection refused, timeouts, unreadable answers: the same call may work later.
    return new BackendException.Retryable(message, e);
  }

  static boolean isResourceInUse(SdkException e) {
    return e instanceof AwsServiceException s && RESOURCE_IN_USE.equals(code(s));
  }

  private static BackendException service(AwsServiceException e, String action) {
    var code = code(e);
    var details = e.awsErrorDetails();
    var words = details == null ? null : details.errorMessage();
    var message = action + ": " + (code == null ? "" : code + ": ") + (words == null ? "" : words);
    // Sets of codes hold no null (and Set.of's contains throws for one): an answer without a code,
    // a proxy's or load balancer's 503 page, is known by its status alone.
    var known = code == null ? "" : code;
    if (e.isThrottlingException() || THROTTLING.contains(known)) {
      return new BackendException.Retryable(message, e);
    }
    if (CAPACITY.contains(known)) {
      return new BackendException.CapacityUnavailable(message, e);
    }
    if (NOT_FOUND.contains(known) || ("ValidationException".equals(code) && saysMissing(words))) {
      return new BackendException.NotFound(message, e);
    }
    if (CREDENTIALS.contains(known) || e.statusCode() == 401 || e.statusCode() == 403) {
      return new BackendException.Unauthenticated(message, e);
    }
    if (e.statusCode() >= 500 || e.statusCode() == 0) {
      return new BackendException.Retryable(message, e);
    }
    return new BackendException.Rejected(message, e);
  }

  // SageMaker answers Describe/Stop of a missing job with a ValidationException, not a 404.
  private static boolean saysMissing(String words) {
    if (words == null) {
      return false;
    }
    var w = words.toLowerCase(Locale.ROOT);
    return w.contains("not found") || w.contains("could not find") || w.contains("does not exist");
  }

  private static boolean isMissingCredentials(SdkException e) {
    var m = e.getMessage();
    return m != null && m.toLowerCase(Locale.ROOT).contains("unable to load credentials");
  }

  private static String code(AwsServiceException e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }
}
