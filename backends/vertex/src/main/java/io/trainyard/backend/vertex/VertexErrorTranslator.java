package io.trainyard.backend.vertex;

import com.google.api.gax.rpc.ApiException;
import io.grpc.StatusRuntimeException;
import io.trainyard.spi.BackendException;

/**
 * Turns the Google client's exceptions into the SPI's typed errors, at the edge of the module, by
 * gRPC status code alone. Messages carry the server's own words, no stack traces.
 */
final class VertexErrorTranslator {
  private VertexErrorTranslator() {}

  /**
   * @param action what we were doing, e.g. {@code create custom job ty-…-a1}; starts the message
   */
  static BackendException translate(ApiException e, String action) {
    var code = e.getStatusCode().getCode();
    var message = action + ": " + code + ": " + words(e);
    return switch (code) {
      case RESOURCE_EXHAUSTED -> new BackendException.CapacityUnavailable(message, e);
      case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE, ALREADY_EXISTS, UNIMPLEMENTED ->
          new BackendException.Rejected(message, e);
      case NOT_FOUND -> new BackendException.NotFound(message, e);
      case UNAUTHENTICATED, PERMISSION_DENIED -> new BackendException.Unauthenticated(message, e);
      // UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED, INTERNAL, UNKNOWN, CANCELLED, DATA_LOSS, OK
      default -> new BackendException.Retryable(message, e);
    };
  }

  /**
   * Errors of Cloud Logging's entries.list, for reading a job's logs: a refused permission names
   * the role that grants it, a spent read quota is worth another try later, and a missing resource
   * means no logs are known.
   */
  static BackendException translateLogs(ApiException e, String action, String project) {
    var code = e.getStatusCode().getCode();
    var message = action + ": " + code + ": " + words(e);
    return switch (code) {
      case PERMISSION_DENIED ->
          new BackendException.Unauthenticated(
              message
                  + " (the gateway's credentials need roles/logging.viewer, or"
                  + " logging.logEntries.list, on project "
                  + project
                  + ")",
              e);
      case RESOURCE_EXHAUSTED ->
          new BackendException.Retryable(
              message
                  + " (Cloud Logging's read quota: 60 entries.list calls a minute per project"
                  + " unless raised)",
              e);
      case NOT_FOUND -> new BackendException.NotFound("no logs known: " + message, e);
      default -> translate(e, action);
    };
  }

  /**
   * The same error again, thrown on another thread than the one that met it (a log poller's), so
   * the reader's stack shows where it read.
   */
  static BackendException again(BackendException e) {
    if (e instanceof BackendException.Retryable) {
      return new BackendException.Retryable(e.getMessage(), e);
    } else if (e instanceof BackendException.CapacityUnavailable) {
      return new BackendException.CapacityUnavailable(e.getMessage(), e);
    } else if (e instanceof BackendException.Rejected) {
      return new BackendException.Rejected(e.getMessage(), e);
    } else if (e instanceof BackendException.NotFound) {
      return new BackendException.NotFound(e.getMessage(), e);
    }
    return new BackendException.Unauthenticated(e.getMessage(), e);
  }

  /** The status description the server sent, without the client's class-name prefixes. */
  private static String words(ApiException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && s.getStatus().getDescription() != null) {
        return s.getStatus().getDescription();
      }
    }
    return e.getMessage();
  }
}
