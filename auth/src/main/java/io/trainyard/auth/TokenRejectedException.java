package io.trainyard.auth;

import java.util.Objects;

/**
 * A bearer token was not accepted. The message is meant for the gateway's log only: the caller gets
 * a generic 401, so that a probing client learns nothing about which check failed. The message
 * never contains the token.
 */
public final class TokenRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final AuthErrorCode code;

  public TokenRejectedException(AuthErrorCode code, String reason) {
    this(code, reason, null);
  }

  public TokenRejectedException(AuthErrorCode code, String reason, Throwable cause) {
    super(Objects.requireNonNull(code, "code") + ": " + reason, cause);
    this.code = code;
  }

  public AuthErrorCode code() {
    return code;
  }
}
