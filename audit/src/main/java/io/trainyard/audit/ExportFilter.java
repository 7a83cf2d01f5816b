package io.trainyard.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which events of an export's range are written in full; the others become stubs. An empty set
 * matches anything; within one set any value may match; all sets and the time window must match.
 *
 * @param actors matches the actor's {@code subject} or {@code username}
 * @param actions exact names, or a prefix written {@code job.*}
 * @param from inclusive, or null
 * @param to exclusive, or null
 */
public record ExportFilter(
    Set<String> actors,
    Set<String> teams,
    Set<String> actions,
    Set<String> backends,
    Instant from,
    Instant to) {

  public static final ExportFilter ALL = new ExportFilter(null, null, null, null, null, null);

  public ExportFilter {
    actors = actors == null ? Set.of() : Set.copyOf(actors);
    teams = teams == null ? Set.of() : Set.copyOf(teams);
    actions = actions == null ? Set.of() : Set.copyOf(actions);
    backends = backends == null ? Set.of() : Set.copyOf(backends);
    if (from != null && to != null && !from.isBefore(to)) {
      throw new AuditException(AuditErrorCode.EXPORT_RANGE_INVALID, "'from' must be before 'to'");
    }
  }

  public boolean matches(AuditEvent event) {
    var actor = event.actor();
    return (actors.isEmpty() || has(actors, actor.subject()) || has(actors, actor.username()))
        && (teams.isEmpty() || has(teams, event.team()))
        && (backends.isEmpty() || has(backends, event.backend()))
        && (actions.isEmpty() || actions.stream().anyMatch(a -> actionMatches(a, event.action())))
        && (from == null || !event.time().isBefore(from))
        && (to == null || event.time().isBefore(to));
  }

  public boolean matchesEverything() {
    return actors.isEmpty()
        && teams.isEmpty()
        && actions.isEmpty()
        && backends.isEmpty()
        && from == null
        && to == null;
  }

  /** Set.copyOf's sets throw on contains(null); an event without a team matches no team. */
  private static boolean has(Set<String> values, String value) {
    return value != null && values.contains(value);
  }

  private static boolean actionMatches(String pattern, String action) {
    return pattern.endsWith(".*")
        ? action.startsWith(pattern.substring(0, pattern.length() - 1))
        : pattern.equals(action);
  }

  /** As recorded in the manifest: sorted lists, null times. */
  ObjectNode toTree() {
    var node = JsonNodeFactory.instance.objectNode();
    sorted(node, "actors", actors);
    sorted(node, "teams", teams);
    sorted(node, "actions", actions);
    sorted(node, "backends", backends);
    node.put("from", from == null ? null : from.toString());
    node.put("to", to == null ? null : to.toString());
    return node;
  }

  private static void sorted(ObjectNode node, String name, Set<String> values) {
    var array = node.putArray(name);
    new TreeSet<>(values).forEach(array::add);
  }
}
