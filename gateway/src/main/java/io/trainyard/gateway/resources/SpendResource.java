package io.trainyard.gateway.resources;

import io.trainyard.auth.Role;
import io.trainyard.gateway.api.SpendReport;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.db.JobRuns;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.spend.SpendReporter;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code GET /v1/spend}: spend over time per team and backend, budgets, and the managed-platform
 * comparison. Scoped as {@code GET /v1/teams/{team}/spend}: team admins their teams, platform
 * admins every team.
 */
@Path("/v1/spend")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"team-admin", "platform-admin"})
public final class SpendResource {
  /** The most points one series may have: a year of days, ten years of months. */
  private static final int MAX_DAYS = 366;

  private static final int MAX_MONTHS = 120;

  private final TeamDirectory teams;
  private final JobRuns runs;
  private final Clock clock;

  public SpendResource(TeamDirectory teams, JobRuns runs, Clock clock) {
    this.teams = teams;
    this.runs = runs;
    this.clock = clock;
  }

  @GET
  public SpendReport spend(
      @QueryParam("since") String since,
      @QueryParam("until") String until,
      @QueryParam("granularity") String granularity,
      @QueryParam("team") String team,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    var now = clock.instant();
    var month = YearMonth.from(now.atZone(ZoneOffset.UTC));
    var from = instant("since", since, month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    var to =
        instant(
            "until", until, month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    if (!from.isBefore(to)) {
      throw ApiException.field(ErrorCode.MALFORMED, "until", "must be after since");
    }
    var g = granularity(granularity);
    int max = g == SpendReporter.Granularity.DAY ? MAX_DAYS : MAX_MONTHS;
    if (SpendReporter.count(g, from, to, max) > max) {
      throw ApiException.field(
          ErrorCode.MALFORMED,
          "since",
          "the window holds more than "
              + max
              + " "
              + g.name().toLowerCase(Locale.ROOT)
              + "s; at most "
              + (g == SpendReporter.Granularity.DAY ? MAX_DAYS + " days" : MAX_MONTHS + " months")
              + " (use granularity=month for longer)");
    }
    var scope = scope(caller, team);
    var budgets = new HashMap<String, BigDecimal>();
    var named = scope == null ? teams.all().keySet() : scope;
    for (var t : named) {
      var budget = teams.budget(t);
      if (budget != null) {
        budgets.put(t, budget.monthlyUsd());
      }
    }
    return SpendReporter.report(g, from, to, now, runs.overlapping(scope, from, to), budgets);
  }

  /** The teams the report covers; null for every team. */
  private Set<String> scope(Caller caller, String team) {
    boolean all = caller.has(Role.PLATFORM_ADMIN);
    if (team != null && !team.isBlank()) {
      if (!all && !caller.principal().teams().contains(team) || !teams.knows(team)) {
        throw new ApiException(ErrorCode.NOT_FOUND, "no team " + team);
      }
      return Set.of(team);
    }
    return all ? null : new HashSet<>(caller.principal().teams());
  }

  private static SpendReporter.Granularity granularity(String value) {
    if (value == null || value.isBlank()) {
      return SpendReporter.Granularity.DAY;
    }
    try {
      return SpendReporter.Granularity.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "granularity", "must be day or month");
    }
  }

  private static Instant instant(String field, String value, Instant otherwise) {
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw ApiException.field(
          ErrorCode.MALFORMED, field, "must be an instant such as 2026-11-01T00:00:00Z");
    }
  }
}
