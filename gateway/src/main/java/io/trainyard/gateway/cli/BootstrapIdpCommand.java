package io.trainyard.gateway.cli;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.audit.IdpBootstrapAudit;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.idp.BootstrapPlan;
import io.trainyard.gateway.idp.BootstrapReport;
import io.trainyard.gateway.idp.KeycloakAdminConnection;
import io.trainyard.gateway.idp.RealmAddress;
import io.trainyard.gateway.idp.RealmBootstrap;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code bootstrap-idp [config.yml] --url URL --realm R --admin-user U --admin-password-env VAR}:
 * makes a Keycloak realm ready for Trainyard (realm roles, one group per configured team, the
 * gateway's and the CLI's clients, optionally demo users), idempotently; see {@link
 * RealmBootstrap}. URL and realm default to the config's {@code auth.issuer}.
 *
 * <p>Secrets are read from environment variables named on the command line, or the admin password
 * from standard input; none is ever printed or logged.
 */
public final class BootstrapIdpCommand extends ConfiguredCommand<TrainyardConfiguration> {
  public BootstrapIdpCommand() {
    super("bootstrap-idp", "Creates Trainyard's roles, groups and clients in a Keycloak realm");
  }

  @Override
  public void configure(Subparser subparser) {
    super.configure(subparser);
    subparser.addArgument("--url").help("Keycloak's base URL (default: from auth.issuer)");
    subparser
        .addArgument("--realm")
        .help("the realm, created if missing (default: from auth.issuer)");
    subparser.addArgument("--admin-realm").setDefault("master").help("the admin's realm");
    subparser.addArgument("--admin-user").setDefault("admin").help("a Keycloak admin");
    subparser
        .addArgument("--admin-password-env")
        .metavar("VAR")
        .help("environment variable holding the admin's password (default: read stdin)");
    subparser
        .addArgument("--team")
        .action(Arguments.append())
        .help("a team besides those in the config; repeat for several");
    subparser
        .addArgument("--cli-client")
        .setDefault("trainyard-cli")
        .help("the CLI's public client id");
    subparser
        .addArgument("--gateway-secret-env")
        .metavar("VAR")
        .help("environment variable holding the gateway client's secret (default: Keycloak's)");
    subparser
        .addArgument("--allow-password-grant")
        .action(Arguments.storeTrue())
        .help(
            "let the CLI client use the password grant (`trainyard login --password`);"
                + " without it an existing client keeps its setting");
    subparser
        .addArgument("--demo-users")
        .action(Arguments.storeTrue())
        .help("create demo-trainer, demo-team-admin, demo-auditor and demo-platform-admin");
    subparser
        .addArgument("--demo-password-env")
        .metavar("VAR")
        .help("environment variable holding the demo users' password (needed with --demo-users)");
  }

  /** The dashboard as browsers reach it: gateway.publicUrl, else the app port on 127.0.0.1. */
  static String dashboardUrl(TrainyardConfiguration config) {
    var configured = config.getGateway().getPublicUrl();
    if (configured != null) {
      return configured.toString().replaceAll("/+$", "");
    }
    var port = 8080;
    if (config.getServerFactory()
        instanceof io.dropwizard.core.server.DefaultServerFactory server) {
      for (var connector : server.getApplicationConnectors()) {
        if (connector instanceof io.dropwizard.jetty.HttpConnectorFactory http
            && http.getPort() > 0) {
          port = http.getPort();
          break;
        }
      }
    }
    return "http://127.0.0.1:" + port;
  }

  @Override
  protected void run(
      Bootstrap<TrainyardConfiguration> bootstrap,
      Namespace namespace,
      TrainyardConfiguration config) {
    var auth = config.getAuth();
    var address = address(namespace, auth);
    var plan =
        new BootstrapPlan(
            address.realm(),
            auth.getAudience(),
            namespace.getString("cli_client"),
            auth.getTeamsClaim(),
            teams(config, namespace.getList("team")),
            namespace.getBoolean("allow_password_grant"),
            secretFromEnv(namespace.getString("gateway_secret_env")),
            demoPassword(namespace),
            dashboardUrl(config));
    String adminPassword = adminPassword(namespace.getString("admin_password_env"));
    var adminUser = namespace.getString("admin_user");
    // Fail closed: the realm is touched only when its audit event can be written.
    try (var audit =
        IdpBootstrapAudit.open(config, bootstrap.getMetricRegistry(), Clock.systemUTC())) {
      System.out.println(
          "Bootstrapping realm " + address.realm() + " at " + address.serverUrl() + " ...");
      BootstrapReport report;
      try (var keycloak =
          KeycloakAdminConnection.asAdmin(
              address.serverUrl(), namespace.getString("admin_realm"), adminUser, adminPassword)) {
        report = new RealmBootstrap(keycloak).run(plan);
      } catch (WebApplicationException | ProcessingException e) {
        throw explain(e, address, adminUser);
      }
      report.lines(address.realm()).forEach(System.out::println);
      var created = new LinkedHashMap<String, String>();
      report.steps().forEach(step -> created.put(step.what(), step.outcome().name()));
      audit.record(
          new AuditActor("keycloak-admin:" + adminUser, adminUser, "bootstrap-idp", null, null),
          address.serverUrl() + "/realms/" + address.realm(),
          created);
    }
  }

  /** One sentence for a person; the admin client's wording (and stack) helps nobody here. */
  private static IllegalStateException explain(
      RuntimeException e, RealmAddress address, String adminUser) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof NotAuthorizedException) {
        return new IllegalStateException(
            "Keycloak refused the admin login of " + adminUser + " (wrong user or password?)", e);
      }
      if (cause instanceof WebApplicationException web) {
        String body = "";
        try {
          body = web.getResponse().readEntity(String.class);
        } catch (RuntimeException unreadable) {
          // the status alone will do
        }
        return new IllegalStateException(
            "Keycloak refused a request: HTTP " + web.getResponse().getStatus() + " " + body, e);
      }
    }
    Throwable deepest = e;
    while (deepest.getCause() != null) {
      deepest = deepest.getCause();
    }
    return new IllegalStateException(
        "cannot reach Keycloak at " + address.serverUrl() + ": " + deepest, e);
  }

  private static RealmAddress address(Namespace namespace, AuthConfig auth) {
    var fromIssuer =
        auth.getMode() == AuthConfig.Mode.OIDC
            ? RealmAddress.fromIssuer(auth.getIssuer())
            : Optional.<RealmAddress>empty();
    var url = namespace.getString("url");
    var realm = namespace.getString("realm");
    if (url == null) {
      url = fromIssuer.map(RealmAddress::serverUrl).orElse(null);
    }
    if (realm == null) {
      realm = fromIssuer.map(RealmAddress::realm).orElse(null);
    }
    if (url == null || realm == null) {
      throw new IllegalArgumentException(
          "give --url and --realm, or a config whose auth.issuer is https://host/realms/NAME");
    }
    return new RealmAddress(url, realm);
  }

  private static Map<String, TeamConfig> teams(TrainyardConfiguration config, List<String> extra) {
    var teams = new LinkedHashMap<>(config.getTeams());
    if (extra != null) {
      extra.forEach(team -> teams.putIfAbsent(team, TeamConfig.DEV));
    }
    return teams;
  }

  private static String demoPassword(Namespace namespace) {
    if (!namespace.getBoolean("demo_users")) {
      return null;
    }
    var variable = namespace.getString("demo_password_env");
    if (variable == null) {
      throw new IllegalArgumentException("--demo-users needs --demo-password-env VAR");
    }
    return secretFromEnv(variable);
  }

  private static String secretFromEnv(String variable) {
    if (variable == null) {
      return null;
    }
    var value = System.getenv(variable);
    if (value == null || value.isEmpty()) {
      // Names the variable, never a value.
      throw new IllegalArgumentException("environment variable " + variable + " is not set");
    }
    return value;
  }

  private static String adminPassword(String variable) {
    if (variable != null) {
      return secretFromEnv(variable);
    }
    var console = System.console();
    if (console != null) {
      char[] typed = console.readPassword("Keycloak admin password: ");
      if (typed != null && typed.length > 0) {
        return new String(typed);
      }
    } else {
      try {
        var line =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (line != null && !line.isEmpty()) {
          return line;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the admin password from stdin", e);
      }
    }
    throw new IllegalArgumentException(
        "no admin password: name its variable with --admin-password-env, or pipe it on stdin");
  }

  @Override
  public void onError(Cli cli, Namespace namespace, Throwable e) {
    // One line a person can act on; the admin-client's stack trace helps nobody running this.
    cli.getStdErr().println("bootstrap-idp failed: " + e.getMessage());
  }
}
