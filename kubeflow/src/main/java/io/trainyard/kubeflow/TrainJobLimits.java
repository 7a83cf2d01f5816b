package io.trainyard.kubeflow;

import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOptions;
import io.trainyard.spi.spec.RoleOverride;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What a valid spec asks for that a Kubeflow Trainer {@code TrainJob} ({@code
 * trainer.kubeflow.org/v1alpha1}) cannot say, each naming the spec's field. A TrainJob describes
 * one group of identical training nodes ({@code trainer}: image, command, args, env, numNodes,
 * resourcesPerNode, numProcPerNode) on top of a ClusterTrainingRuntime that owns everything else:
 * restarts, clean-up, gang scheduling, and the pod template, which a TrainJob can only patch
 * through {@code podTemplateOverrides}.
 */
final class TrainJobLimits {
  /** Pod-template keys {@code podTemplateOverrides[].spec} (or its metadata) can carry. */
  static final Set<String> POD_FIELDS =
      Set.of(
          "metadata",
          "serviceAccountName",
          "nodeSelector",
          "affinity",
          "tolerations",
          "securityContext",
          "volumes",
          "imagePullSecrets",
          "containers");

  /**
   * Fields of the framework's container entry a TrainJob can carry: a ContainerOverride's own, and
   * {@code resources}, which becomes {@code trainer.resourcesPerNode}.
   */
  static final Set<String> CONTAINER_FIELDS =
      Set.of("name", "volumeMounts", "securityContext", "resources");

  private static final String RUNTIME = "the ClusterTrainingRuntime's";

  private TrainJobLimits() {}

  /** The frameworks a TrainJob can run: those Trainer's built-in runtimes run as alike nodes. */
  static final Set<Framework> FRAMEWORKS =
      Set.of(Framework.PYTORCH, Framework.XGBOOST, Framework.JAX);

  static List<FieldError> of(JobSpec spec) {
    var result = new ArrayList<FieldError>();
    if (!FRAMEWORKS.contains(spec.framework())) {
      result.add(new FieldError("spec.framework", framework(spec.framework())));
      return result;
    }
    if (spec.restartPolicy() != null) {
      result.add(restarts("spec.restartPolicy"));
    }
    spec.roles()
        .forEach(
            (role, o) -> {
              if (o.restartPolicy() != null) {
                result.add(restarts("spec.roles." + role + ".restartPolicy"));
              }
            });
    if (spec.elastic() != null) {
      result.add(
          new FieldError(
              "spec.elastic", "a TrainJob has a fixed trainer.numNodes; it cannot run elastic"));
    }
    if (spec.maxRuntime() != null) {
      result.add(
          new FieldError(
              "spec.maxRuntime",
              "a TrainJob (trainer.kubeflow.org/v1alpha1) has no deadline field; the hard stop"
                  + " could not be enforced"));
    }
    if (spec.maxRestarts() != null) {
      result.add(restarts("spec.maxRestarts"));
    }
    if (spec.cleanup() != null) {
      result.add(
          new FieldError(
              "spec.cleanup",
              "a TrainJob's pod clean-up and TTL are " + RUNTIME + " (its JobSet template)"));
    }
    var kubernetes = spec.kubernetes();
    if (kubernetes != null
        && kubernetes.scheduling() != null
        && !kubernetes.scheduling().isEmpty()) {
      result.add(
          new FieldError(
              "spec.kubernetes.scheduling",
              "a TrainJob's gang scheduling is " + RUNTIME + " podGroupPolicy"));
    }
    var container = KubeflowKind.of(spec.framework()).containerName();
    podTemplate(kubernetes, "spec.kubernetes", container, result);
    spec.roles()
        .forEach(
            (role, o) ->
                podTemplate(
                    o.kubernetes(), "spec.roles." + role + ".kubernetes", container, result));
    sameNodes(spec, result);
    return result;
  }

  private static String framework(Framework framework) {
    return switch (framework) {
      case TENSORFLOW ->
          "Kubeflow Trainer has no TensorFlow runtime: a TrainJob cannot run chief, parameter-server"
              + " or evaluator roles; use a cluster of flavor kubeflow-v1";
      case MPI ->
          "Trainyard renders TrainJobs for pytorch, xgboost and jax: an MPI TrainJob's launcher"
              + " is one of its runtime's nodes, not the spec's launcher role; use a cluster of"
              + " flavor kubeflow-v1";
      default ->
          "Kubeflow Trainer ships no "
              + framework.wireName()
              + " runtime (Trainyard renders TrainJobs for pytorch, xgboost and jax); use a"
              + " cluster of flavor kubeflow-v1";
    };
  }

  private static FieldError restarts(String field) {
    return new FieldError(
        field, "a TrainJob's restart policy and backoff are " + RUNTIME + "; leave it out");
  }

  /** Pod-template fields {@code podTemplateOverrides} has no place for. */
  private static void podTemplate(
      KubernetesOptions options, String path, String container, List<FieldError> result) {
    if (options == null) {
      return;
    }
    var at = path + ".podTemplate";
    options
        .podTemplate()
        .forEach(
            (key, value) -> {
              if (!POD_FIELDS.contains(key)) {
                result.add(
                    new FieldError(
                        at + "." + key, "a TrainJob's podTemplateOverrides cannot set it"));
              } else if (key.equals("metadata") && value instanceof Map<?, ?> meta) {
                meta.keySet().stream()
                    .filter(k -> !k.equals("labels") && !k.equals("annotations"))
                    .forEach(
                        k ->
                            result.add(
                                new FieldError(
                                    at + ".metadata." + k,
                                    "a TrainJob's podTemplateOverrides carry only labels and"
                                        + " annotations")));
              } else if (key.equals("containers") && value instanceof List<?> list) {
                containers(list, at + ".containers", container, result);
              }
            });
  }

  private static void containers(List<?> list, String at, String main, List<FieldError> result) {
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> entry)) {
        continue;
      }
      if (!main.equals(entry.get("name"))) {
        result.add(
            new FieldError(
                at + "[" + i + "]",
                "a TrainJob can patch only its runtime's containers; it cannot add "
                    + entry.get("name")));
        continue;
      }
      for (var field : entry.keySet()) {
        if (!CONTAINER_FIELDS.contains(field.toString())) {
          result.add(
              new FieldError(
                  at + "[" + i + "]." + field,
                  "a TrainJob's trainer container (node) cannot take it"));
        }
      }
    }
  }

  /** Every role must run alike: a TrainJob has one {@code trainer} for all its nodes. */
  private static void sameNodes(JobSpec spec, List<FieldError> result) {
    var roles = spec.roleSpecs();
    if (roles.size() < 2) {
      return;
    }
    var first = roles.get(0);
    for (var role : roles.subList(1, roles.size())) {
      differs(spec, first, role, "image", RoleSpec::image, RoleOverride::image, result);
      differs(spec, first, role, "command", RoleSpec::command, RoleOverride::command, result);
      differs(spec, first, role, "args", RoleSpec::args, RoleOverride::args, result);
      differs(spec, first, role, "env", RoleSpec::env, RoleOverride::env, result);
      differs(spec, first, role, "secretEnv", RoleSpec::secretEnv, RoleOverride::secretEnv, result);
      differs(spec, first, role, "resources", RoleSpec::resources, RoleOverride::resources, result);
      differs(
          spec,
          first,
          role,
          "kubernetes",
          r -> r.kubernetes().podTemplate(),
          RoleOverride::kubernetes,
          result);
    }
  }

  private static void differs(
      JobSpec spec,
      RoleSpec first,
      RoleSpec role,
      String field,
      Function<RoleSpec, Object> value,
      Function<RoleOverride, Object> override,
      List<FieldError> result) {
    if (Objects.equals(value.apply(first), value.apply(role))) {
      return;
    }
    // Name the override that makes the difference: the later role's if it sets the field.
    var later = spec.roles().get(role.name());
    var named = later != null && isSet(override.apply(later)) ? role.name() : first.name();
    result.add(
        new FieldError(
            "spec.roles." + named + "." + field,
            "differs between "
                + first.name()
                + " and "
                + role.name()
                + ": a TrainJob runs every node alike (one trainer for numNodes nodes)"));
  }

  private static boolean isSet(Object value) {
    return value != null && !(value instanceof Map<?, ?> m && m.isEmpty());
  }
}
