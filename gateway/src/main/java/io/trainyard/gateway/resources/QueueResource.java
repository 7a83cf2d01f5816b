package io.trainyard.gateway.resources;

import io.trainyard.auth.Role;
import io.trainyard.gateway.api.QueueList;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.queue.FairOrder;
import io.trainyard.gateway.queue.QueueStore;
import io.trainyard.gateway.queue.QueuedJob;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * {@code GET /v1/queue}: every queued job of the caller's teams (a platform-admin: of every team)
 * with its position in the whole queue, its priority, team, age and why it waits.
 */
@Path("/v1/queue")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class QueueResource {
  private final QueueStore queue;
  private final TeamDirectory teams;
  private final Clock clock;

  public QueueResource(QueueStore queue, TeamDirectory teams, Clock clock) {
    this.queue = queue;
    this.teams = teams;
    this.clock = clock;
  }

  @GET
  public QueueList list(@Context SecurityContext security) {
    var caller = Caller.of(security);
    var placed = new HashMap<String, Integer>();
    queue.usage().forEach((team, usage) -> placed.put(team, usage.jobs()));
    var order =
        new FairOrder(
            queue.queued(null),
            placed,
            team -> teams.config(team).weight() == null ? 1 : teams.config(team).weight());
    var now = clock.instant();
    var entries = new ArrayList<QueueList.Entry>();
    int position = 0;
    for (QueuedJob job : order.drain()) {
      position++;
      if (!caller.has(Role.PLATFORM_ADMIN) && !caller.principal().teams().contains(job.team())) {
        continue;
      }
      entries.add(
          new QueueList.Entry(
              position,
              job.id(),
              job.name(),
              job.team(),
              job.priority(),
              job.createdAt(),
              Math.max(0, Duration.between(job.createdAt(), now).toSeconds()),
              job.reason(),
              reasons(job.reason())));
    }
    return new QueueList(entries);
  }

  /** "no backend can take it now: a: x; b: y" → [a: x, b: y]; any other reason as it is. */
  private static List<String> reasons(String reason) {
    if (reason == null) {
      return List.of();
    }
    var prefix = "no backend can take it now: ";
    if (!reason.startsWith(prefix)) {
      return List.of(reason);
    }
    return List.of(reason.substring(prefix.length()).split("; "));
  }
}
