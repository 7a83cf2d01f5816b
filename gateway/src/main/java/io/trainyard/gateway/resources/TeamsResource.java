package io.trainyard.gateway.resources;

import io.trainyard.auth.Role;
import io.trainyard.gateway.api.TeamSpend;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.TeamDirectory;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** A team's spend against its budget: for its team admins and platform admins. */
@Path("/v1/teams/{team}")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"team-admin", "platform-admin"})
public final class TeamsResource {
  private final TeamDirectory teams;
  private final JobStore store;
  private final Clock clock;

  public TeamsResource(TeamDirectory teams, JobStore store, Clock clock) {
    this.teams = teams;
    this.store = store;
    this.clock = clock;
  }

  @GET
  @Path("spend")
  public TeamSpend spend(
      @PathParam("team") String team,
      @QueryParam("month") String month,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    if (!caller.has(Role.PLATFORM_ADMIN) && !caller.principal().teams().contains(team)
        || !teams.knows(team)) {
      throw new ApiException(ErrorCode.NOT_FOUND, "no team " + team);
    }
    var which = parseMonth(month);
    var spend = store.spend(team, which);
    var budget = teams.budget(team);
    return new TeamSpend(
        team,
        which.toString(),
        spend.accruedUsd(),
        spend.committedUsd(),
        spend.totalUsd(),
        budget == null ? null : budget.monthlyUsd(),
        budget == null ? null : budget.overBudget().name().toLowerCase(Locale.ROOT),
        budget == null ? null : budget.monthlyUsd().subtract(spend.totalUsd()));
  }

  private YearMonth parseMonth(String month) {
    if (month == null || month.isBlank()) {
      return YearMonth.from(clock.instant().atZone(ZoneOffset.UTC));
    }
    try {
      return YearMonth.parse(month);
    } catch (DateTimeParseException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "month", "must be a month such as 2026-11");
    }
  }
}
