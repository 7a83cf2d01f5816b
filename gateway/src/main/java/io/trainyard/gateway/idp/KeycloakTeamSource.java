package io.trainyard.gateway.idp;

import io.trainyard.gateway.config.TeamConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.representations.idm.GroupRepresentation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the gateway's teams in step with the realm's groups: the configured teams, with the
 * attributes of the group of the same name laid over them ({@link TeamAttributes}), plus every
 * group marked {@code trainyard.team=true} that the configuration does not name.
 *
 * <p>Read at start and then every refresh interval, on one background thread. When Keycloak cannot
 * be read, the teams last read stay in force (the configuration alone until the first success), so
 * the gateway never depends on Keycloak's admin API to serve requests.
 */
public final class KeycloakTeamSource implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KeycloakTeamSource.class);
  // Top-level groups only; a realm with more teams than this has outgrown attributes as config.
  private static final int MAX_GROUPS = 1000;

  private final Keycloak keycloak;
  private final String realm;
  private final Map<String, TeamConfig> configured;
  private final Consumer<Map<String, TeamConfig>> publish;
  private final Duration interval;
  private final ScheduledExecutorService scheduler;
  private volatile Map<String, TeamConfig> lastPublished;

  /**
   * @param keycloak a connection whose account may list the realm's groups; closed with this
   * @param publish receives the complete team map after every read that changed it
   */
  public KeycloakTeamSource(
      Keycloak keycloak,
      String realm,
      Map<String, TeamConfig> configured,
      Consumer<Map<String, TeamConfig>> publish,
      Duration interval) {
    this.keycloak = Objects.requireNonNull(keycloak, "keycloak");
    this.realm = Objects.requireNonNull(realm, "realm");
    this.configured = Map.copyOf(configured);
    this.publish = Objects.requireNonNull(publish, "publish");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.lastPublished = this.configured;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var thread = new Thread(r, "keycloak-team-source");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Reads now in the background, and every interval after. */
  public void start() {
    scheduler.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void refresh() {
    Map<String, TeamConfig> teams;
    try {
      teams = read();
    } catch (RuntimeException e) {
      if (!scheduler.isShutdown()) {
        // JAX-RS and connection errors alike: keep serving with what we have.
        LOG.warn(
            "Cannot read the groups of realm {}; the teams stay as they were: {}",
            realm,
            e.toString());
      }
      return;
    }
    if (!teams.equals(lastPublished)) {
      lastPublished = teams;
      publish.accept(teams);
      LOG.info("Teams from config and realm {} groups: {}", realm, teams.keySet());
    }
  }

  /** The teams as the realm's groups say now. */
  public Map<String, TeamConfig> read() {
    List<GroupRepresentation> groups =
        keycloak.realm(realm).groups().groups(null, 0, MAX_GROUPS, false);
    var teams = new LinkedHashMap<>(configured);
    var problems = new ArrayList<String>();
    for (var group : groups) {
      var name = group.getName();
      var attributes = group.getAttributes();
      var base = configured.get(name);
      if (base != null) {
        teams.put(name, TeamAttributes.merge(name, base, attributes, problems));
      } else if (TeamAttributes.isTeam(attributes)) {
        teams.put(name, TeamAttributes.merge(name, TeamConfig.DEV, attributes, problems));
      }
    }
    problems.forEach(p -> LOG.warn("Ignoring a Keycloak group attribute of team {}", p));
    return Map.copyOf(teams);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      // Let a read in flight end before its connection pool goes.
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    keycloak.close();
  }
}
