package io.trainyard.gateway.auth;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * Makes the caller's address readable by Jersey filters as the request property {@value
 * #ATTRIBUTE}: Jersey's request properties are the servlet request's attributes, whereas a servlet
 * request injected into the filters {@link AccessFeature} registers per method is not there. The
 * address is Jetty's view of it (the connector's {@code useForwardedHeaders} decides whether a
 * proxy's {@code X-Forwarded-For} counts), and it is what audit events name as the source.
 */
public final class SourceAddressFilter implements Filter {
  public static final String ATTRIBUTE = "trainyard.sourceIp";

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    request.setAttribute(ATTRIBUTE, request.getRemoteAddr());
    chain.doFilter(request, response);
  }
}
