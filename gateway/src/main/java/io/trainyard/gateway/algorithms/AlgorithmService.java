package io.trainyard.gateway.algorithms;

import io.trainyard.audit.AuditActions;
import io.trainyard.auth.Role;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.db.AlgorithmStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.errors.PlainDigits;
import io.trainyard.gateway.jobs.CanonicalJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.spi.spec.JobSpecValidator;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the registry's API may do for whom. Trainers create algorithms and publish versions in their
 * own teams and move the default (self-service); team admins also deprecate, withdraw and change
 * visibility; platform admins do everything everywhere. Reading shows a caller their teams'
 * algorithms and everyone's public ones; another team's private algorithm answers 404, as one that
 * does not exist. Thread-safe.
 */
public final class AlgorithmService {
  /** Where one algorithm lives. */
  public record Name(String team, String name) {
    @Override
    public String toString() {
      return team + "/" + name;
    }
  }

  /** A published version and whether this request stored it. */
  public record Publication(AlgorithmVersion version, boolean created) {}

  private static final int MAX_VERSION = 999_999_999;

  private final AlgorithmStore store;
  private final TeamDirectory teams;
  private final AlgorithmDefinitionCheck check = new AlgorithmDefinitionCheck();
  private final Clock clock;

  public AlgorithmService(AlgorithmStore store, TeamDirectory teams, Clock clock) {
    this.store = store;
    this.teams = teams;
    this.clock = clock;
  }

  public List<Algorithm> list(Caller caller) {
    return store.list(caller.has(Role.PLATFORM_ADMIN) ? null : caller.principal().teams());
  }

  /** An algorithm the caller may see, or 404. */
  public Algorithm get(Caller caller, Name at) {
    return store
        .find(at.team(), at.name())
        .filter(a -> caller.has(Role.PLATFORM_ADMIN) || visible(caller, a))
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no algorithm " + at));
  }

  public List<AlgorithmVersion> versions(Algorithm algorithm) {
    return store.versions(algorithm.team(), algorithm.name());
  }

  public Algorithm create(Caller caller, AlgorithmDocuments.CreateRequest request) {
    var at = nameOf(caller, request.name());
    mayWrite(caller, at.team());
    if (request.visibility() == Visibility.EVERYONE && !isAdmin(caller)) {
      throw ApiException.field(
          ErrorCode.FORBIDDEN,
          "visibility",
          "everyone is for a team-admin of " + at.team() + " to set; create it as team");
    }
    int number = request.version() == null ? 1 : request.version();
    checkVersion(number);
    var definition = checked(request.definition());
    var now = clock.instant();
    var who = caller.principal().username();
    var algorithm =
        new Algorithm(
            at.team(),
            at.name(),
            definition.description(),
            request.visibility(),
            number,
            who,
            now,
            now);
    var first = version(at, number, definition, caller);
    var details = new LinkedHashMap<String, Object>();
    details.put("visibility", request.visibility().wireName());
    details.putAll(versionDetails(first));
    if (!store.create(
        algorithm, first, event(caller, AuditActions.ALGORITHM_CREATE, at, details))) {
      throw ApiException.field(
          ErrorCode.CONFLICT,
          "name",
          "team "
              + at.team()
              + " already has an algorithm "
              + at.name()
              + "; publish a new version with PUT /v1/algorithms/"
              + at
              + "/versions/{version}");
    }
    return algorithm;
  }

  /** Publishes a version; the same definition again changes nothing (idempotent). */
  public Publication publish(Caller caller, Name at, int number, AlgorithmDefinition definition) {
    mayWrite(caller, at.team());
    get(caller, at);
    checkVersion(number);
    var version = version(at, number, checked(definition), caller);
    var result =
        store.publish(
            version, event(caller, AuditActions.ALGORITHM_PUBLISH, at, versionDetails(version)));
    return switch (result) {
      case CREATED -> new Publication(version, true);
      case SAME ->
          new Publication(store.version(at.team(), at.name(), number).orElseThrow(), false);
      case DIFFERENT ->
          throw ApiException.field(
              ErrorCode.CONFLICT,
              "version",
              "version "
                  + number
                  + " of "
                  + at
                  + " is already published with another definition, and published versions"
                  + " never change; publish it as a new version");
      case NO_ALGORITHM -> throw new ApiException(ErrorCode.NOT_FOUND, "no algorithm " + at);
    };
  }

  public Algorithm moveDefault(Caller caller, Name at, String versionText) {
    mayWrite(caller, at.team());
    get(caller, at);
    var number = parseVersion(versionText);
    var version = existing(at, number);
    if (version.status() == VersionStatus.WITHDRAWN) {
      throw ApiException.field(
          ErrorCode.CONFLICT,
          "version",
          version.reference() + " is withdrawn: it cannot be the" + " default");
    }
    store.setDefault(
        at.team(),
        at.name(),
        number,
        clock.instant(),
        event(caller, AuditActions.ALGORITHM_DEFAULT, at, Map.of("version", number)));
    return get(caller, at);
  }

  /** Deprecates, withdraws or restores a version: team admins of its team, platform admins. */
  public AlgorithmVersion setStatus(Caller caller, Name at, int number, VersionStatus status) {
    mayAdminister(caller, at.team());
    get(caller, at);
    var before = existing(at, number);
    if (before.status() != status) {
      store.setStatus(
          at.team(),
          at.name(),
          number,
          status,
          event(
              caller,
              AuditActions.ALGORITHM_STATUS,
              at,
              Map.of(
                  "version", number, "from", before.status().wireName(), "to", status.wireName())));
    }
    return existing(at, number);
  }

  public Algorithm setVisibility(Caller caller, Name at, String visibilityText) {
    mayAdminister(caller, at.team());
    var before = get(caller, at);
    Visibility visibility;
    try {
      visibility = Visibility.fromWireName(visibilityText);
    } catch (IllegalArgumentException e) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, "visibility", e.getMessage());
    }
    if (before.visibility() != visibility) {
      store.setVisibility(
          at.team(),
          at.name(),
          visibility,
          clock.instant(),
          event(
              caller,
              AuditActions.ALGORITHM_VISIBILITY,
              at,
              Map.of("from", before.visibility().wireName(), "to", visibility.wireName())));
    }
    return get(caller, at);
  }

  /** {@code team/name} or a bare name in the caller's only team. */
  public Name nameOf(Caller caller, String text) {
    var slash = text.indexOf('/');
    var team = slash < 0 ? null : text.substring(0, slash);
    var name = slash < 0 ? text : text.substring(slash + 1);
    if (team != null && !label(team) || !label(name)) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC,
          "name",
          "must be name or team/name, each a DNS-1123 label (lower-case letters, digits and '-',"
              + " at most 63)");
    }
    if (team == null) {
      var mine = caller.principal().teams();
      if (mine.size() != 1) {
        throw ApiException.field(
            ErrorCode.INVALID_SPEC,
            "name",
            "must name the team (team/name): you belong to "
                + (mine.isEmpty() ? "no team" : "several teams (" + String.join(", ", mine) + ")"));
      }
      team = mine.iterator().next();
    }
    return new Name(team, name);
  }

  /** A path's team and name, or 404 when they cannot name an algorithm. */
  public static Name pathName(String team, String name) {
    if (!label(team) || !label(name)) {
      throw new ApiException(ErrorCode.NOT_FOUND, "no algorithm " + team + "/" + name);
    }
    return new Name(team, name);
  }

  public static int parseVersion(String text) {
    try {
      if (!PlainDigits.isPlain(text)) {
        throw new NumberFormatException("not a whole number in 0-9");
      }
      var number = Integer.parseInt(text.strip());
      checkVersion(number);
      return number;
    } catch (NumberFormatException e) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC, "version", "must be a whole number from 1 to " + MAX_VERSION);
    }
  }

  private static void checkVersion(int number) {
    if (number < 1 || number > MAX_VERSION) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC, "version", "must be a whole number from 1 to " + MAX_VERSION);
    }
  }

  private AlgorithmVersion existing(Name at, int number) {
    return store
        .version(at.team(), at.name(), number)
        .orElseThrow(
            () ->
                ApiException.field(
                    ErrorCode.NOT_FOUND, "version", at + " has no version " + number));
  }

  private AlgorithmDefinition checked(AlgorithmDefinition definition) {
    var errors = check.errors(definition);
    if (!errors.isEmpty()) {
      throw new ApiException(
          ErrorCode.INVALID_SPEC,
          "the algorithm definition is not valid: " + errors.size() + " problem(s)",
          errors,
          null);
    }
    return definition;
  }

  private AlgorithmVersion version(
      Name at, int number, AlgorithmDefinition definition, Caller caller) {
    return new AlgorithmVersion(
        at.team(),
        at.name(),
        number,
        definition,
        CanonicalJson.sha256(definition),
        VersionStatus.ACTIVE,
        caller.principal().username(),
        clock.instant());
  }

  private static Map<String, Object> versionDetails(AlgorithmVersion v) {
    // The hash pins exactly what was published; env values stay out of the log.
    var details = new LinkedHashMap<String, Object>();
    details.put("version", v.version());
    details.put("definitionSha256", v.definitionHash());
    details.put("image", v.definition().image());
    details.put("framework", v.definition().framework().wireName());
    return details;
  }

  private AuditEntry event(Caller caller, String action, Name at, Map<String, ?> details) {
    return AuditEntry.builder(
            clock.instant(),
            AuditActors.of(caller),
            action,
            "algorithm/" + at.team() + "/" + at.name())
        .team(at.team())
        .details(details)
        .build();
  }

  private void mayWrite(Caller caller, String team) {
    if (caller.has(Role.PLATFORM_ADMIN) && teams.knows(team)) {
      return;
    }
    if (!caller.principal().teams().contains(team)) {
      throw new ApiException(
          ErrorCode.FORBIDDEN,
          "you are not a member of team " + team + ": only its members publish its algorithms");
    }
  }

  private void mayAdminister(Caller caller, String team) {
    mayWrite(caller, team);
    if (!isAdmin(caller)) {
      throw new ApiException(
          ErrorCode.FORBIDDEN,
          "deprecating, withdrawing and changing visibility are for a team-admin of " + team);
    }
  }

  private static boolean isAdmin(Caller caller) {
    return caller.has(Role.TEAM_ADMIN) || caller.has(Role.PLATFORM_ADMIN);
  }

  private static boolean visible(Caller caller, Algorithm a) {
    return a.visibility() == Visibility.EVERYONE || caller.principal().teams().contains(a.team());
  }

  private static boolean label(String text) {
    return text.length() <= 63 && JobSpecValidator.DNS1123_LABEL.matcher(text).matches();
  }
}
