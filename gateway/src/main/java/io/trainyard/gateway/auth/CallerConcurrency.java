package io.trainyard.gateway.auth;

import io.trainyard.gateway.errors.ApiException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests each caller has in progress on this replica, bounded per caller ({@code
 * callerRequests.maxConcurrent}). {@link AccessFeature} takes a place once the caller is known
 * (before the body is read, so trickled bodies count); as a servlet filter this gives it back when
 * the request is done, whatever happened to it: after a streamed answer too, and after an error in
 * any layer. Thread-safe.
 */
public final class CallerConcurrency implements Filter {
  /** The request attribute (= Jersey property) holding the caller whose place to give back. */
  static final String PLACE = "trainyard.callerPlace";

  private final int maxConcurrent;
  private final long retryAfterSeconds;
  // merge/computeIfPresent are atomic per key, so counting and forgetting an idle caller cannot
  // race.
  private final Map<String, Integer> inProgress = new ConcurrentHashMap<>();

  public CallerConcurrency(int maxConcurrent, long retryAfterSeconds) {
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1");
    }
    this.maxConcurrent = maxConcurrent;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * Takes a place for {@code caller}'s request.
   *
   * @throws ApiException 429 with Retry-After when the caller already has its most
   */
  void enter(String caller, ContainerRequestContext request) {
    if (request.getProperty(PLACE) != null) {
      return; // one place per request, however many times it is checked
    }
    if (inProgress.merge(caller, 1, Integer::sum) > maxConcurrent) {
      leave(caller);
      throw ApiException.tooMany(
          "request",
          "you already have "
              + maxConcurrent
              + " requests in progress on this gateway, the most one caller may; wait for one to"
              + " be answered",
          retryAfterSeconds);
    }
    request.setProperty(PLACE, caller);
  }

  private void leave(String caller) {
    inProgress.computeIfPresent(caller, (k, n) -> n <= 1 ? null : n - 1);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    try {
      chain.doFilter(request, response);
    } finally {
      if (request.getAttribute(PLACE) instanceof String caller) {
        request.removeAttribute(PLACE);
        leave(caller);
      }
    }
  }
}
