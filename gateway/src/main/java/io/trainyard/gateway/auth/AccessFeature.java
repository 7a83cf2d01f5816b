package io.trainyard.gateway.auth;

import io.trainyard.auth.AuthErrorCode;
import io.trainyard.auth.Principal;
import io.trainyard.auth.Role;
import io.trainyard.auth.TokenRejectedException;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.logging.LogEscape;
import jakarta.annotation.Priority;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.SecurityContext;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authentication and authorization for every resource method, deny by default: a method is open
 * only if marked {@link PermitAll}, reachable only by the roles its {@link RolesAllowed} names, and
 * refused (403) if it says neither — so a new endpoint cannot be left open by forgetting.
 */
public final class AccessFeature implements DynamicFeature {
  private static final Logger LOG = LoggerFactory.getLogger(AccessFeature.class);

  /** Said for every authentication failure, so the answer tells an attacker nothing. */
  static final String UNAUTHENTICATED = "a valid bearer token is required";

  /** Hears of every refused token, e.g. to audit them (aggregated per source). */
  @FunctionalInterface
  public interface FailureListener {
    /**
     * @param sourceIp where the request came from, or null
     * @param reason a short code: {@code missing}, or the auth module's error code
     */
    void refused(String sourceIp, String reason);

    /**
     * A caller whose token was good asked for what none of its roles allows.
     *
     * @param request method and path, e.g. {@code GET /v1/audit}
     * @param needs the roles that would have been allowed
     */
    default void denied(Caller caller, String request, String needs) {}
  }

  private final Function<String, Principal> verifier;
  private final FailureListener failures;
  private final CallerConcurrency concurrency;

  /**
   * @param verifier verifies a bearer token, throwing {@link TokenRejectedException} when it is not
   *     acceptable
   */
  public AccessFeature(Function<String, Principal> verifier) {
    this(verifier, (sourceIp, reason) -> {});
  }

  public AccessFeature(Function<String, Principal> verifier, FailureListener failures) {
    this(verifier, failures, null);
  }

  /**
   * @param concurrency bounds each caller's requests in progress; null = unbounded
   */
  public AccessFeature(
      Function<String, Principal> verifier,
      FailureListener failures,
      CallerConcurrency concurrency) {
    this.verifier = verifier;
    this.failures = failures;
    this.concurrency = concurrency;
  }

  @Override
  public void configure(ResourceInfo resource, FeatureContext context) {
    var method = resource.getResourceMethod();
    if (method.isAnnotationPresent(PermitAll.class)) {
      return;
    }
    var allowed = method.getAnnotation(RolesAllowed.class);
    if (allowed == null) {
      allowed = resource.getResourceClass().getAnnotation(RolesAllowed.class);
    }
    var roles = EnumSet.noneOf(Role.class);
    if (allowed != null) {
      for (var name : allowed.value()) {
        roles.add(
            Role.fromName(name)
                .orElseThrow(() -> new IllegalStateException("unknown role " + name)));
      }
    }
    context.register(new Check(roles));
  }

  @Priority(Priorities.AUTHENTICATION)
  private final class Check implements ContainerRequestFilter {
    private final Set<Role> roles;

    @Context private HttpServletRequest http;

    Check(Set<Role> roles) {
      this.roles = roles;
    }

    @Override
    public void filter(ContainerRequestContext request) {
      var caller = authenticate(request);
      if (roles.stream().noneMatch(caller::has)) {
        var needs = roles.stream().map(Role::realmRoleName).collect(Collectors.joining(", "));
        failures.denied(caller, request.getMethod() + " /" + request.getUriInfo().getPath(), needs);
        throw new ApiException(
            ErrorCode.FORBIDDEN,
            roles.isEmpty()
                ? "this endpoint is not open to any role"
                : "needs one of the roles " + needs);
      }
      if (concurrency != null) {
        concurrency.enter(caller.principal().subject(), request);
      }
      var secure = request.getSecurityContext().isSecure();
      request.setSecurityContext(
          new SecurityContext() {
            @Override
            public java.security.Principal getUserPrincipal() {
              return caller;
            }

            @Override
            public boolean isUserInRole(String role) {
              return Role.fromName(role).map(caller::has).orElse(false);
            }

            @Override
            public boolean isSecure() {
              return secure;
            }

            @Override
            public String getAuthenticationScheme() {
              return "Bearer";
            }
          });
    }

    private Caller authenticate(ContainerRequestContext request) {
      var header = request.getHeaderString("Authorization");
      // The servlet filter's attribute first: the injected request is a proxy whose every call
      // is a look-up in the request scope (a visible share of a cheap read's CPU).
      var source = (String) request.getProperty(SourceAddressFilter.ATTRIBUTE);
      if (source == null && http != null) {
        source = http.getRemoteAddr();
      }
      if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        failures.refused(source, "missing");
        throw new ApiException(ErrorCode.UNAUTHENTICATED, UNAUTHENTICATED);
      }
      try {
        return new Caller(verifier.apply(header.substring(7).trim()), source);
      } catch (TokenRejectedException e) {
        if (e.code().category() == AuthErrorCode.Category.EXTERNAL) {
          // The IdP's keys could not be fetched: our trouble, not a bad token.
          LOG.warn("cannot verify tokens: {}", LogEscape.of(e.getMessage()));
          throw new ApiException(
              ErrorCode.BACKEND_UNAVAILABLE, "the identity provider cannot be reached; try again");
        }
        // The reason is for operators; the caller hears the same words every time.
        // The message quotes the token's own header and claims: the caller's words, escaped.
        if (firstRefusalThisMinute(source + " " + e.code())) {
          LOG.info(
              "token refused from {}: {} (more from it this minute are counted in the audit log,"
                  + " not logged)",
              LogEscape.of(source),
              LogEscape.of(e.getMessage()));
        }
        failures.refused(source, e.code().name());
        throw new ApiException(ErrorCode.UNAUTHENTICATED, UNAUTHENTICATED);
      }
    }

    /** Sources (and why) whose refused token was logged, by the minute it was; bounded. */
    private final java.util.Map<String, Long> refusalLogged =
        new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Whether a refused token from {@code source} is the first this minute: only that one is logged
     * (a flood of bad tokens would otherwise write a line each; the audit log counts them all).
     */
    private boolean firstRefusalThisMinute(String source) {
      long minute = System.currentTimeMillis() / 60_000;
      if (refusalLogged.size() >= 10_000) {
        refusalLogged.clear();
      }
      var before = refusalLogged.put(source == null ? "unknown" : source, minute);
      return before == null || before != minute;
    }
  }
}
