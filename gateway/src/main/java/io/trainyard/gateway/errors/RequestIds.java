package io.trainyard.gateway.errors;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is sane, else a new one. It
 * is in the response header, in every error body and in the log lines of the request (MDC key
 * {@code requestId}), so a user's error report leads to the log.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class RequestIds implements ContainerRequestFilter, ContainerResponseFilter {
  public static final String HEADER = "X-Request-Id";
  public static final String PROPERTY = "trainyard.requestId";
  public static final String MDC_KEY = "requestId";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{8,64}");

  @Override
  public void filter(ContainerRequestContext request) {
    var given = request.getHeaderString(HEADER);
    var id = given != null && SANE.matcher(given).matches() ? given : newId();
    request.setProperty(PROPERTY, id);
    MDC.put(MDC_KEY, id);
  }

  /**
   * A random (version 4) UUID from the thread's own generator. An id only has to tell requests
   * apart in the logs; it is no secret, so it need not come from {@code SecureRandom}, whose shared
   * source {@link UUID#randomUUID} locks on every request.
   */
  static String newId() {
    var random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    var id = (String) request.getProperty(PROPERTY);
    if (id != null) {
      response.getHeaders().putSingle(HEADER, id);
    }
    MDC.remove(MDC_KEY);
  }
}
