package io.trainyard.spi.spec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One role of a job with the spec's defaults and the role's overrides already applied: what every
 * replica of this role runs. Backends render replicas from this, never from the raw spec. {@code
 * env} and {@code secretEnv} keep the spec's order.
 *
 * @param kubernetes the role's Kubernetes-only options, defaults merged; {@link
 *     KubernetesOptions#NONE} when there are none
 */
public record RoleSpec(
    String name,
    int replicas,
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Map<String, SecretRef> secretEnv,
    Resources resources,
    RestartPolicy restartPolicy,
    KubernetesOptions kubernetes) {

  public RoleSpec {
    Objects.requireNonNull(name, "name");
    command = List.copyOf(command);
    args = List.copyOf(args);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    secretEnv = Collections.unmodifiableMap(new LinkedHashMap<>(secretEnv));
    Objects.requireNonNull(resources, "resources");
    kubernetes = kubernetes == null ? KubernetesOptions.NONE : kubernetes;
  }

  /**
   * Which of the fields that make up a container this role runs differently from {@code other}
   * ({@code image}, {@code command}, {@code args}, {@code env}, {@code secretEnv}), in that order;
   * empty when both run the same container. For platforms that run one container on every node.
   */
  public List<String> containerDifferences(RoleSpec other) {
    var differs = new java.util.ArrayList<String>();
    if (!Objects.equals(image, other.image)) {
      differs.add("image");
    }
    if (!command.equals(other.command)) {
      differs.add("command");
    }
    if (!args.equals(other.args)) {
      differs.add("args");
    }
    if (!env.equals(other.env)) {
      differs.add("env");
    }
    if (!secretEnv.equals(other.secretEnv)) {
      differs.add("secretEnv");
    }
    return differs;
  }

  /** A role with no Kubernetes-only options. */
  public RoleSpec(
      String name,
      int replicas,
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      Map<String, SecretRef> secretEnv,
      Resources resources,
      RestartPolicy restartPolicy) {
    this(
        name,
        replicas,
        image,
        command,
        args,
        env,
        secretEnv,
        resources,
        restartPolicy,
        KubernetesOptions.NONE);
  }
}
