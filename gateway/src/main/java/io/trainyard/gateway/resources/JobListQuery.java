package io.trainyard.gateway.resources;

import io.trainyard.auth.Role;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.db.JobFilter;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.JobState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code GET /v1/jobs}'s parameters read into a {@link JobFilter} (each malformed one a 400 naming
 * it), the caller's visibility applied, and the opaque cursor: base64url of the last row's
 * (created_at, id) and a hash of the filters, so a cursor given with other filters is refused.
 */
final class JobListQuery {
  private static final Pattern ALGORITHM = Pattern.compile("([^/@\\s]+/[^/@\\s]+)(?:@(\\d{1,9}))?");
  private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

  private JobListQuery() {}

  /** The filter as asked, before the caller's visibility is applied. */
  static JobFilter parse(
      List<String> states,
      String team,
      String backend,
      String algorithm,
      String owner,
      String since,
      String until) {
    var wanted = EnumSet.noneOf(JobState.class);
    for (var s : states) {
      try {
        wanted.add(JobState.valueOf(s.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw ApiException.field(ErrorCode.MALFORMED, "state", "unknown state '" + s + "'");
      }
    }
    String algorithmName = null;
    Integer version = null;
    if (present(algorithm)) {
      var m = ALGORITHM.matcher(algorithm);
      if (!m.matches()) {
        throw ApiException.field(
            ErrorCode.MALFORMED, "algorithm", "must be team/name or team/name@N");
      }
      algorithmName = m.group(1);
      version = m.group(2) == null ? null : Integer.valueOf(m.group(2));
    }
    var from = instant("since", since);
    var to = instant("until", until);
    if (from != null && to != null && !from.isBefore(to)) {
      throw ApiException.field(ErrorCode.MALFORMED, "until", "must be after since");
    }
    return new JobFilter(
        present(team) ? Set.of(team) : null,
        wanted,
        present(backend) ? backend : null,
        algorithmName,
        version,
        present(owner) ? owner : null,
        from,
        to);
  }

  /**
   * {@code asked} narrowed to what the caller sees: platform admins and auditors every team, others
   * their own teams (a team of someone else's gives an empty answer, as if it had no jobs).
   */
  static JobFilter visibleTo(Caller caller, JobFilter asked) {
    if (caller.has(Role.PLATFORM_ADMIN) || caller.has(Role.AUDITOR)) {
      return asked;
    }
    var mine = caller.principal().teams();
    if (asked.teams() == null) {
      return asked.withTeams(Set.copyOf(mine));
    }
    return asked.withTeams(
        asked.teams().stream().filter(mine::contains).collect(java.util.stream.Collectors.toSet()));
  }

  static String cursor(JobFilter asked, JobFilter.Position last) {
    var text = last.createdAt() + "|" + last.id() + "|" + hash(asked);
    return ENCODE.encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The position a cursor names; a 400 naming {@code cursor} when it is not one of ours for these
   * filters.
   */
  static JobFilter.Position position(String cursor, JobFilter asked) {
    if (!present(cursor)) {
      return null;
    }
    String[] parts;
    try {
      parts = new String(DECODE.decode(cursor), StandardCharsets.UTF_8).split("\\|", -1);
    } catch (IllegalArgumentException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "cursor", "is not a cursor this API gave");
    }
    if (parts.length != 3 || parts[1].isEmpty()) {
      throw ApiException.field(ErrorCode.MALFORMED, "cursor", "is not a cursor this API gave");
    }
    if (!parts[2].equals(hash(asked))) {
      throw ApiException.field(
          ErrorCode.MALFORMED,
          "cursor",
          "was given with other filters; repeat the filters of the page it came from");
    }
    try {
      return new JobFilter.Position(Instant.parse(parts[0]), parts[1]);
    } catch (DateTimeParseException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "cursor", "is not a cursor this API gave");
    }
  }

  /** A short hash of the filters as asked (not the caller's teams: the same query continues). */
  private static String hash(JobFilter f) {
    var canonical =
        String.join(
            "\n",
            f.teams() == null ? "" : String.join(",", f.teams().stream().sorted().toList()),
            String.join(",", f.states().stream().map(Enum::name).sorted().toList()),
            String.valueOf(f.backend()),
            String.valueOf(f.algorithm()),
            String.valueOf(f.algorithmVersion()),
            String.valueOf(f.owner()),
            String.valueOf(f.since()),
            String.valueOf(f.until()));
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Instant instant(String field, String value) {
    if (!present(value)) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw ApiException.field(
          ErrorCode.MALFORMED, field, "must be an instant such as 2026-11-30T10:00:00Z");
    }
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}
