package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The body of a {@link TrainingJob}: what to run, on how many replicas of which roles, and under
 * which constraints. Fields at the top are the defaults of every replica; {@code roles} overrides
 * them per role. Collections are never null.
 *
 * <p>{@code priority} orders queued jobs (0–1000, default {@value #DEFAULT_PRIORITY}). {@code
 * algorithm} names a registered algorithm ({@code [team/]name[@version|@default]}) whose image,
 * command and defaults the gateway merges under the spec's own fields before validation, with
 * {@code hyperparameters} (scalar values) checked against its schema; a stored job keeps the
 * resolved reference ({@code team/name@version}).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record JobSpec(
    Framework framework,
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Map<String, SecretRef> secretEnv,
    Resources resources,
    RestartPolicy restartPolicy,
    Map<String, Integer> replicas,
    Map<String, RoleOverride> roles,
    Integer processesPerReplica,
    Elastic elastic,
    BigDecimal estimatedHours,
    String maxRuntime,
    Integer maxRestarts,
    Cleanup cleanup,
    Checkpoint checkpoint,
    List<Input> inputs,
    List<Volume> volumes,
    Output output,
    Map<String, Object> deepspeed,
    PlacementSpec placement,
    Compliance compliance,
    KubernetesOptions kubernetes,
    Integer priority,
    String algorithm,
    Map<String, Object> hyperparameters) {
  /** The priority of a job that names none. */
  public static final int DEFAULT_PRIORITY = 500;

  public JobSpec {
    command = command == null ? List.of() : List.copyOf(command);
    args = args == null ? List.of() : List.copyOf(args);
    // env keeps the user's order: Kubernetes expands $(VAR) only from variables defined earlier.
    env = env == null ? Map.of() : ordered(env);
    secretEnv = secretEnv == null ? Map.of() : ordered(secretEnv);
    replicas = replicas == null ? Map.of() : ordered(replicas);
    roles = roles == null ? Map.of() : ordered(roles);
    inputs = inputs == null ? List.of() : List.copyOf(inputs);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    deepspeed = deepspeed == null ? Map.of() : ordered(deepspeed);
    hyperparameters = hyperparameters == null ? Map.of() : ordered(hyperparameters);
  }

  /** A spec without priority, algorithm or hyperparameters. */
  public JobSpec(
      Framework framework,
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      Map<String, SecretRef> secretEnv,
      Resources resources,
      RestartPolicy restartPolicy,
      Map<String, Integer> replicas,
      Map<String, RoleOverride> roles,
      Integer processesPerReplica,
      Elastic elastic,
      BigDecimal estimatedHours,
      String maxRuntime,
      Integer maxRestarts,
      Cleanup cleanup,
      Checkpoint checkpoint,
      List<Input> inputs,
      List<Volume> volumes,
      Output output,
      Map<String, Object> deepspeed,
      PlacementSpec placement,
      Compliance compliance,
      KubernetesOptions kubernetes) {
    this(
        framework,
        image,
        command,
        args,
        env,
        secretEnv,
        resources,
        restartPolicy,
        replicas,
        roles,
        processesPerReplica,
        elastic,
        estimatedHours,
        maxRuntime,
        maxRestarts,
        cleanup,
        checkpoint,
        inputs,
        volumes,
        output,
        deepspeed,
        placement,
        compliance,
        kubernetes,
        null,
        null,
        null);
  }

  @JsonIgnore
  public int effectivePriority() {
    return priority == null ? DEFAULT_PRIORITY : priority;
  }

  // Keeps the user's order (role order matters for ranks) while refusing later mutation.
  private static <V> Map<String, V> ordered(Map<String, V> map) {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  /**
   * Every role with replicas, defaults and overrides applied, in the framework's rank order (the
   * coordinator first). Call only on a valid spec.
   */
  @JsonIgnore
  public List<RoleSpec> roleSpecs() {
    var last = LAST_ROLES.get();
    if (last != null && last.spec() == this) {
      return last.roles();
    }
    var roles = List.copyOf(mergedRoles());
    LAST_ROLES.set(new Roles(this, roles));
    return roles;
  }

  /**
   * The roles last worked out on this thread, with the spec they are of. A quote asks every backend
   * about one spec, and each backend's checks ask for its roles several times: merging them once
   * per quote rather than some fifty times was a tenth of a quote's CPU (issue 19). A spec is
   * immutable, so its roles are the same whoever asks; compared by identity, as a record's equality
   * would cost more than the merge. Each thread keeps one spec and its roles.
   */
  private static final ThreadLocal<Roles> LAST_ROLES = new ThreadLocal<>();

  private record Roles(JobSpec spec, List<RoleSpec> roles) {}

  private List<RoleSpec> mergedRoles() {
    var result = new ArrayList<RoleSpec>();
    for (var role : framework.roles()) {
      var count = replicas.get(role);
      if (count == null) {
        continue;
      }
      var o = roles.getOrDefault(role, RoleOverride.NONE);
      var mergedEnv = new LinkedHashMap<>(env);
      mergedEnv.putAll(o.env());
      var mergedSecretEnv = new LinkedHashMap<>(secretEnv);
      mergedSecretEnv.putAll(o.secretEnv());
      result.add(
          new RoleSpec(
              role,
              count,
              o.image() != null ? o.image() : image,
              o.command() != null ? o.command() : command,
              o.args() != null ? o.args() : args,
              mergedEnv,
              mergedSecretEnv,
              o.resources() != null
                  ? o.resources().over(effectiveResources())
                  : effectiveResources(),
              o.restartPolicy() != null ? o.restartPolicy() : effectiveRestartPolicy(),
              roleKubernetes(o)));
    }
    return result;
  }

  // What a role's pods get: job-wide labels and annotations are the job object's, not a role's.
  private KubernetesOptions roleKubernetes(RoleOverride o) {
    var defaults =
        kubernetes == null
            ? KubernetesOptions.NONE
            : new KubernetesOptions(kubernetes.podTemplate(), kubernetes.scheduling());
    return o.kubernetes() == null
        ? defaults
        : new KubernetesOptions(o.kubernetes().podTemplate(), o.kubernetes().scheduling())
            .over(defaults);
  }

  @JsonIgnore
  public int totalReplicas() {
    return replicas.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Labels for the job's object on Kubernetes ({@code spec.kubernetes.jobLabels}); never null. */
  @JsonIgnore
  public Map<String, String> jobLabels() {
    return kubernetes == null ? Map.of() : kubernetes.jobLabels();
  }

  /** Annotations for the job's object ({@code spec.kubernetes.jobAnnotations}); never null. */
  @JsonIgnore
  public Map<String, String> jobAnnotations() {
    return kubernetes == null ? Map.of() : kubernetes.jobAnnotations();
  }

  /** GPUs per replica summed over every replica. */
  @JsonIgnore
  public int totalGpus() {
    return roleSpecs().stream().mapToInt(r -> r.replicas() * r.resources().gpuCount()).sum();
  }

  @JsonIgnore
  public Resources effectiveResources() {
    return resources == null ? Resources.NONE : resources;
  }

  @JsonIgnore
  public RestartPolicy effectiveRestartPolicy() {
    return restartPolicy == null ? RestartPolicy.ON_FAILURE : restartPolicy;
  }

  @JsonIgnore
  public PlacementSpec effectivePlacement() {
    return placement == null ? PlacementSpec.DEFAULT : placement;
  }

  @JsonIgnore
  public int effectiveMaxRestarts() {
    return maxRestarts == null ? 0 : maxRestarts;
  }

  @JsonIgnore
  public int effectiveProcessesPerReplica() {
    return processesPerReplica == null ? 1 : processesPerReplica;
  }

  @JsonIgnore
  public DataClassification dataClassification() {
    return compliance == null || compliance.dataClassification() == null
        ? DataClassification.INTERNAL
        : compliance.dataClassification();
  }

  /** The hard stop, if the spec sets one. Call only on a valid spec. */
  public Optional<Duration> maxRuntimeDuration() {
    return maxRuntime == null ? Optional.empty() : Optional.of(Quantities.duration(maxRuntime));
  }

  /**
   * True when the job needs something only Kubernetes can give (PVCs, pod-template fields, gang
   * scheduling), at the top or in any role.
   */
  @JsonIgnore
  public boolean needsKubernetes() {
    return !volumes.isEmpty()
        || (kubernetes != null && kubernetes.needsKubernetes())
        || roles.values().stream()
            .anyMatch(o -> o != null && o.kubernetes() != null && o.kubernetes().needsKubernetes());
  }
}
