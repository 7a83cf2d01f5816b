package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.KubernetesOptions;
import io.trainyard.spi.spec.Resources;
import io.trainyard.spi.spec.RestartPolicy;
import io.trainyard.spi.spec.RoleOverride;
import io.trainyard.spi.spec.SecretRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Turns the replica types of a document into the spec's defaults and per-role overrides. A field's
 * default is the value most replica types share (the first type's on a tie); the others override
 * it. A type that lacks a value the others have cannot say "none" in an override (an absent
 * override means "the default"), so such a field gets a default only when every type agrees.
 * Rendering the result gives each type exactly its own values back: the round trip is exact.
 *
 * <p>Env entries every type has become defaults, which renders them first; when a value refers to
 * another variable ({@code $(NAME)}, expanded only from earlier entries) env stays per role, in
 * document order. Pod-template keys are factored one top-level key at a time.
 */
final class RoleFactoring {
  /** The spec's fields that depend on the replica types. */
  record Factored(
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      Map<String, SecretRef> secretEnv,
      Resources resources,
      RestartPolicy restartPolicy,
      Map<String, Integer> replicas,
      Map<String, RoleOverride> roles,
      Map<String, Object> podTemplate) {}

  private static final Predicate<Object> PRESENT = Objects::nonNull;
  private static final Predicate<List<String>> NON_EMPTY = l -> l != null && !l.isEmpty();

  private final List<Replica> replicas;

  private RoleFactoring(List<Replica> replicas) {
    this.replicas = replicas;
  }

  /** Factors {@code replicas}, given in the framework's rank order. */
  static Factored factor(List<Replica> replicas) {
    return new RoleFactoring(replicas).factor();
  }

  private Factored factor() {
    var image = common(r -> r.main().image(), PRESENT);
    var command = common(r -> r.main().command(), NON_EMPTY);
    var args = common(r -> r.main().args(), NON_EMPTY);
    var restartPolicy = common(Replica::restartPolicy, PRESENT);
    var orderMatters =
        replicas.size() > 1 && replicas.stream().anyMatch(r -> r.main().envOrderMatters());
    var env = orderMatters ? Map.<String, String>of() : commonEntries(r -> r.main().env());
    var secretEnv = commonEntries(r -> r.main().secretEnv());
    var resources = commonResources();
    var podTemplate = commonPodTemplate();
    var counts = new LinkedHashMap<String, Integer>();
    var roles = new LinkedHashMap<String, RoleOverride>();
    for (var r : replicas) {
      counts.put(r.role(), r.count());
      var override =
          new RoleOverride(
              unlessDefault(r.main().image(), image),
              unlessDefault(r.main().command(), command),
              unlessDefault(r.main().args(), args),
              differing(r.main().env(), env),
              differing(r.main().secretEnv(), secretEnv),
              roleResources(r.main().resources(), resources),
              unlessDefault(r.restartPolicy(), restartPolicy),
              roleKubernetes(r.podTemplate(), podTemplate));
      if (!override.equals(RoleOverride.NONE)) {
        roles.put(r.role(), override);
      }
    }
    return new Factored(
        image,
        command,
        args,
        env,
        secretEnv,
        resources,
        restartPolicy,
        counts,
        roles,
        PodTemplateTrees.toMap(podTemplate));
  }

  /**
   * The default for a field: its most common value, provided every type with another value can
   * override it ({@code expressible}); otherwise a value only if all types agree on it.
   */
  private <T> T common(Function<Replica, T> field, Predicate<? super T> expressible) {
    return majority(replicas.stream().map(field).toList(), expressible);
  }

  private static <T> T majority(List<T> values, Predicate<? super T> expressible) {
    var counts = new LinkedHashMap<T, Integer>();
    values.forEach(v -> counts.merge(v, 1, Integer::sum));
    T best = values.get(0);
    for (var e : counts.entrySet()) {
      if (e.getValue() > counts.get(best)) {
        best = e.getKey();
      }
    }
    final var candidate = best;
    var overridable =
        values.stream().allMatch(v -> Objects.equals(v, candidate) || expressible.test(v));
    if (overridable) {
      return candidate;
    }
    return counts.size() == 1 ? candidate : null;
  }

  private static <T> T unlessDefault(T own, T defaultValue) {
    return Objects.equals(own, defaultValue) ? null : own;
  }

  /** Entries every type has, with their most common value, in the first type's order. */
  private <V> Map<String, V> commonEntries(Function<Replica, Map<String, V>> field) {
    var result = new LinkedHashMap<String, V>();
    for (var name : field.apply(replicas.get(0)).keySet()) {
      var values = replicas.stream().map(r -> field.apply(r).get(name)).toList();
      if (values.stream().allMatch(Objects::nonNull)) {
        result.put(name, majority(values, PRESENT));
      }
    }
    return result;
  }

  /** A type's entries that are not the defaults' (new ones and other values). */
  private static <V> Map<String, V> differing(Map<String, V> own, Map<String, V> defaults) {
    var result = new LinkedHashMap<String, V>();
    own.forEach(
        (name, value) -> {
          if (!value.equals(defaults.get(name))) {
            result.put(name, value);
          }
        });
    return result;
  }

  private Resources commonResources() {
    var result =
        new Resources(
            common(r -> field(r, Resources::gpus), PRESENT),
            null,
            common(r -> field(r, Resources::cpus), PRESENT),
            common(r -> field(r, Resources::memory), PRESENT));
    return result.equals(Resources.NONE) ? null : result;
  }

  private static <T> T field(Replica r, Function<Resources, T> f) {
    return r.main().resources() == null ? null : f.apply(r.main().resources());
  }

  private static Resources roleResources(Resources own, Resources defaults) {
    if (own == null) {
      return null; // then every default field is null too: see common()
    }
    var d = defaults == null ? Resources.NONE : defaults;
    var result =
        new Resources(
            unlessDefault(own.gpus(), d.gpus()),
            null,
            unlessDefault(own.cpus(), d.cpus()),
            unlessDefault(own.memory(), d.memory()));
    return result.equals(Resources.NONE) ? null : result;
  }

  /** For each top-level key every type has: its most common value. */
  private ObjectNode commonPodTemplate() {
    var keys = new LinkedHashSet<String>();
    replicas.forEach(r -> r.podTemplate().fieldNames().forEachRemaining(keys::add));
    var result = JsonNodeFactory.instance.objectNode();
    for (var key : keys) {
      Collection<JsonNode> values = new ArrayList<>();
      replicas.forEach(r -> values.add(r.podTemplate().get(key)));
      if (values.stream().allMatch(Objects::nonNull)) {
        result.set(key, majority(List.copyOf(values), PRESENT));
      }
    }
    return result;
  }

  private static KubernetesOptions roleKubernetes(ObjectNode own, ObjectNode defaults) {
    var result = JsonNodeFactory.instance.objectNode();
    own.properties()
        .forEach(
            e -> {
              if (!e.getValue().equals(defaults.get(e.getKey()))) {
                result.set(e.getKey(), e.getValue());
              }
            });
    return result.isEmpty() ? null : new KubernetesOptions(PodTemplateTrees.toMap(result));
  }
}
