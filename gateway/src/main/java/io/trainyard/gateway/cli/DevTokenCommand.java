package io.trainyard.gateway.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code dev-token --user U --team T --role R}: prints a token from the dev issuer, for any user,
 * team and role. Works only in dev mode (no config file, or {@code auth.mode: dev}).
 */
public final class DevTokenCommand extends ConfiguredCommand<TrainyardConfiguration> {
  public DevTokenCommand() {
    super("dev-token", "Prints a dev-mode bearer token (dev mode only)");
  }

  @Override
  public void configure(Subparser subparser) {
    super.configure(subparser);
    subparser.addArgument("--user").setDefault("dev").help("user name (default dev)");
    subparser
        .addArgument("--team")
        .action(Arguments.append())
        .help("a team the user is in; repeat for several (default dev)");
    subparser
        .addArgument("--role")
        .action(Arguments.append())
        .help("trainer, team-admin, auditor or platform-admin; repeat for several");
    subparser.addArgument("--ttl").setDefault("12h").help("lifetime, e.g. 30m or 12h");
  }

  @Override
  protected void run(
      Bootstrap<TrainyardConfiguration> bootstrap,
      Namespace namespace,
      TrainyardConfiguration config) {
    if (config.getAuth().getMode() != AuthConfig.Mode.DEV) {
      throw new IllegalStateException("dev-token works only with auth.mode dev");
    }
    var issuer = DevIssuer.loadOrCreate(config.dataPath(), config.getAuth().effectiveIssuer());
    List<String> teams = namespace.getList("team");
    List<String> roles = namespace.getList("role");
    teams = teams == null ? List.of("dev") : teams;
    roles = roles == null ? List.of("trainer") : roles;
    var ttl = io.trainyard.spi.spec.Quantities.duration(namespace.getString("ttl"));
    System.out.println(
        issuer.mint(
            namespace.getString("user"),
            new LinkedHashSet<>(teams),
            new LinkedHashSet<>(roles),
            ttl.isZero() ? Duration.ofHours(12) : ttl));
  }
}
