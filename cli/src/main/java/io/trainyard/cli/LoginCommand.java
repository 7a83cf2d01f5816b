package io.trainyard.cli;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * {@code trainyard login}: gets a token from the IdP and caches it ({@link TokenCache}) for the
 * commands that follow. By default the device authorization grant (RFC 8628): the person approves
 * the login in any browser, the CLI never sees a password. With {@code --password}, the password
 * grant, for realms that allow it (scripts, CI without a browser): the password comes from {@code
 * TRAINYARD_PASSWORD} or standard input, never from the command line, where others could see it.
 *
 * <p>The IdP is {@code --issuer URL} (or {@code --idp URL --realm NAME}, Keycloak's layout), else
 * {@code TRAINYARD_ISSUER}; the client {@code --client-id}, else {@code TRAINYARD_CLIENT_ID}, else
 * {@code trainyard-cli}, the client {@code bootstrap-idp} creates.
 */
final class LoginCommand {
  static final String DEFAULT_CLIENT = "trainyard-cli";
  // RFC 8628 section 3.5: a slow_down answer adds five seconds to the polling interval.
  private static final Duration SLOW_DOWN = Duration.ofSeconds(5);

  /** Waits between two polls; tests pass one that returns at once. */
  interface Sleeper {
    void sleep(Duration duration);
  }

  private final Terminal terminal;
  private final IdpClient idp;
  private final Clock clock;
  private final Sleeper sleeper;

  LoginCommand(Terminal terminal, IdpClient idp, Clock clock, Sleeper sleeper) {
    this.terminal = terminal;
    this.idp = idp;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  int login(CommandLine line) {
    var cache = cache();
    var issuer = issuer(line);
    var clientId = firstOf(line.option("--client-id"), env("TRAINYARD_CLIENT_ID"), DEFAULT_CLIENT);
    var endpoints = idp.discover(issuer);
    var answer =
        line.has("--password")
            ? passwordGrant(line, endpoints, clientId)
            : deviceGrant(endpoints, clientId);
    var login =
        IdpClient.login(answer, issuer, clientId, endpoints.tokenEndpoint(), clock.instant());
    cache.save(login);
    terminal
        .out()
        .println(
            "Logged in to "
                + issuer
                + (login.username() == null ? "" : " as " + login.username())
                + "; the token is cached in "
                + cache.file()
                + " and refreshed as needed.");
    return ExitStatus.OK.code();
  }

  int logout() {
    var cache = cache();
    terminal
        .out()
        .println(cache.delete() ? "Logged out: removed " + cache.file() : "Not logged in.");
    return ExitStatus.OK.code();
  }

  private TokenCache cache() {
    return TokenCache.of(terminal.env())
        .orElseThrow(
            () ->
                CliException.usage(
                    "nowhere to keep the login: set TRAINYARD_CONFIG_DIR or HOME"
                        + CommandLine.HINT));
  }

  private String issuer(CommandLine line) {
    var issuer = line.option("--issuer");
    var idpUrl = line.option("--idp");
    var realm = line.option("--realm");
    if (issuer == null && idpUrl != null && realm != null) {
      issuer = idpUrl.replaceAll("/+$", "") + "/realms/" + realm;
    } else if (issuer == null && (idpUrl != null || realm != null)) {
      throw CliException.usage("--idp and --realm go together" + CommandLine.HINT);
    }
    issuer = firstOf(issuer, env("TRAINYARD_ISSUER"), null);
    if (issuer == null) {
      throw CliException.usage(
          "which IdP? give --issuer URL (or --idp URL --realm NAME), or set TRAINYARD_ISSUER"
              + CommandLine.HINT);
    }
    if (!issuer.startsWith("https://") && !issuer.startsWith("http://")) {
      throw CliException.usage("the issuer must be an http(s) URL, not '" + issuer + "'");
    }
    return issuer.replaceAll("/+$", "");
  }

  private IdpClient.TokenAnswer passwordGrant(
      CommandLine line, IdpClient.Endpoints endpoints, String clientId) {
    var user = firstOf(line.option("--user"), env("TRAINYARD_USER"), null);
    if (user == null) {
      throw CliException.usage("--password needs --user NAME (or TRAINYARD_USER)");
    }
    var password = env("TRAINYARD_PASSWORD");
    if (password == null) {
      password = terminal.readSecret("Password for " + user + ": ");
    }
    if (password == null) {
      throw CliException.usage("no password: type it, pipe it on stdin, or set TRAINYARD_PASSWORD");
    }
    var form = new LinkedHashMap<String, String>();
    form.put("grant_type", "password");
    form.put("client_id", clientId);
    form.put("username", user);
    form.put("password", password);
    form.put("scope", "openid");
    var answer = idp.token(endpoints.tokenEndpoint(), form);
    if (answer.ok()) {
      return answer;
    }
    throw switch (answer.error()) {
      case "invalid_grant" ->
          CliException.of(ExitStatus.AUTH, "the IdP refused the credentials of " + user, List.of());
      case "unauthorized_client" ->
          CliException.failed(
              "the realm does not allow the password grant for client "
                  + clientId
                  + "; run `trainyard login` to log in with a browser");
      default -> CliException.failed("the IdP refused the login: " + describe(answer));
    };
  }

  private IdpClient.TokenAnswer deviceGrant(IdpClient.Endpoints endpoints, String clientId) {
    var code = idp.startDeviceLogin(endpoints, clientId);
    var out = terminal.out();
    if (code.verificationUriComplete() != null) {
      out.println("To log in, open this page and approve:");
      out.println("  " + code.verificationUriComplete());
      out.println("or open " + code.verificationUri() + " and enter the code " + code.userCode());
    } else {
      out.println("To log in, open " + code.verificationUri());
      out.println("and enter the code " + code.userCode());
    }
    out.println("Waiting for the approval...");
    out.flush();
    Instant deadline = clock.instant().plus(code.expiresIn());
    var interval = code.interval();
    var form = new LinkedHashMap<String, String>();
    form.put("grant_type", IdpClient.DEVICE_GRANT);
    form.put("device_code", code.deviceCode());
    form.put("client_id", clientId);
    form.put("code_verifier", code.codeVerifier());
    while (clock.instant().isBefore(deadline)) {
      sleeper.sleep(interval);
      var answer = idp.token(endpoints.tokenEndpoint(), form);
      if (answer.ok()) {
        return answer;
      }
      switch (answer.error()) {
        case "authorization_pending" -> {}
        case "slow_down" -> interval = interval.plus(SLOW_DOWN);
        case "access_denied" ->
            throw CliException.of(ExitStatus.AUTH, "the login was declined", List.of());
        case "expired_token" -> throw expired();
        default -> throw CliException.failed("the IdP refused the login: " + describe(answer));
      }
    }
    throw expired();
  }

  private static CliException expired() {
    return CliException.failed(
        "the code expired before it was approved; run `trainyard login` again");
  }

  private static String describe(IdpClient.TokenAnswer answer) {
    return answer.errorDescription() == null
        ? answer.error()
        : answer.error() + " (" + answer.errorDescription() + ")";
  }

  private String env(String name) {
    var value = terminal.env().get(name);
    return value == null || value.isBlank() ? null : value;
  }

  private static String firstOf(String first, String second, String otherwise) {
    return first != null ? first : second != null ? second : otherwise;
  }

  /** The real sleeper. */
  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
  }
}
