package io.trainyard.gateway.errors;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Refuses a request body in a {@code Content-Encoding} the gateway cannot read, with 415 naming the
 * header ({@link JsonErrorHandler}). Jetty inflates {@code gzip} bodies; any other coding (say
 * {@code br}) was read as if it were plain text, so a compressed body failed as a document that
 * does not parse, or worse, one that does.
 */
public final class ContentEncodings implements Filter {
  private static final Set<String> READ = Set.of("identity", "gzip", "x-gzip");

  /** True when every coding {@code header} lists is one the gateway reads. */
  static boolean isSupported(String header) {
    for (var coding : header.split(",", -1)) {
      var name = coding.strip().toLowerCase(Locale.ROOT);
      if (!name.isEmpty() && !READ.contains(name)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    var coding = ((HttpServletRequest) request).getHeader("Content-Encoding");
    if (coding != null && !isSupported(coding)) {
      throw new BadMessageException(415, "unsupported Content-Encoding");
    }
    chain.doFilter(request, response);
  }
}
