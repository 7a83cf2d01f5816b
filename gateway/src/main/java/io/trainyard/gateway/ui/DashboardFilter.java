package io.trainyard.gateway.ui;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Serves the dashboard on the application port, the same origin as the API: {@code index.html} at
 * {@code /} and at each of the single-page app's routes (never cached), the hashed {@code
 * /assets/*} (cached for a year: a new build has new names), and {@code /ui-config.json}, the
 * public sign-in settings. Everything else, {@code /v1} included, passes through untouched.
 *
 * <p>Every answer from here carries a strict Content-Security-Policy: scripts and styles from this
 * origin only (no inline ones), connections to this origin and the IdP only, never framed.
 */
public final class DashboardFilter implements Filter {
  /** The single-page app's routes; {@code /jobs/{id}} too. */
  static final Set<String> ROUTES =
      Set.of(
          "/",
          "/index.html",
          "/callback",
          "/jobs",
          "/compare",
          "/backends",
          "/spend",
          "/algorithms",
          "/audit");

  private static final String ASSETS = "/assets/";

  /** A job's page; compiled once, as every API request passes this filter on its way. */
  private static final Pattern JOB_PAGE = Pattern.compile("/jobs/[0-9a-z]{26}");

  private static final String CONFIG = "/ui-config.json";

  private final DashboardAssets assets;
  private final Supplier<String> config;
  private final String policy;

  /**
   * @param config the JSON of {@code /ui-config.json}
   * @param issuerOrigin the IdP's origin ({@code https://sso.example.com}), space-separated when
   *     its token endpoint is on another; null when the issuer is this gateway (dev mode)
   */
  public DashboardFilter(DashboardAssets assets, Supplier<String> config, String issuerOrigin) {
    this.assets = assets;
    this.config = config;
    this.policy = policy(issuerOrigin);
  }

  static String policy(String issuerOrigin) {
    var idp = issuerOrigin == null ? "" : " " + issuerOrigin;
    return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        + " font-src 'self'; connect-src 'self'"
        + idp
        + "; form-action 'self'"
        + idp
        + "; frame-ancestors 'none'; base-uri 'none'";
  }

  /** The headers every page of the dashboard, and the dev sign-in page, is served with. */
  public static void secure(HttpServletResponse response, String policy) {
    response.setHeader("Content-Security-Policy", policy);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
  }

  public String policy() {
    return policy;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    var request = (HttpServletRequest) req;
    var response = (HttpServletResponse) res;
    var method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      chain.doFilter(req, res);
      return;
    }
    var path = request.getRequestURI().substring(request.getContextPath().length());
    if (path.startsWith(ASSETS)) {
      var name = path.substring(ASSETS.length());
      var bytes = assets.asset(name);
      if (bytes.isEmpty()) {
        chain.doFilter(req, res); // the API's 404, in its JSON shape
        return;
      }
      secure(response, policy);
      response.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      send(response, DashboardAssets.contentType(name), bytes.get(), method);
    } else if (CONFIG.equals(path)) {
      secure(response, policy);
      response.setHeader("Cache-Control", "no-store");
      send(response, "application/json", config.get().getBytes(StandardCharsets.UTF_8), method);
    } else if (ROUTES.contains(path) || JOB_PAGE.matcher(path).matches()) {
      secure(response, policy);
      response.setHeader("Cache-Control", "no-store");
      send(response, "text/html; charset=utf-8", assets.index(), method);
    } else {
      chain.doFilter(req, res);
    }
  }

  private static void send(HttpServletResponse response, String type, byte[] body, String method)
      throws IOException {
    response.setStatus(200);
    response.setContentType(type);
    response.setContentLength(body.length);
    if (!"HEAD".equals(method)) {
      response.getOutputStream().write(body);
    }
  }
}
