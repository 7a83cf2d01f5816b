package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for the Kubeflow training operator: moves a job's {@code status} the way its v1
 * controllers do, through the status subresource. Conditions are shaped and merged as the
 * operator's {@code pkg/util/status.go} does it: {@code {type, status, reason, message,
 * lastUpdateTime, lastTransitionTime}}, reasons {@code
 * <Kind><Created|Running|Restarting|Succeeded|Failed| Suspended|Resumed>}, one condition per type;
 * setting {@code Running} drops {@code Restarting} and the reverse; {@code Succeeded}/{@code
 * Failed} turn {@code Running} False; nothing changes once {@code Failed}. {@code
 * replicaStatuses.<Type>} carries {@code active}, {@code succeeded}, {@code failed}. Also creates
 * the job's pods with the operator's labels, for log tests.
 */
public final class FakeTrainingOperator {
  private final KubernetesClient client;
  private final Clock clock;

  public FakeTrainingOperator(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  public void created(Attempt at) {
    condition(at, "Created", "True", reason(at, "Created"), message(at, "is created."));
  }

  public void running(Attempt at, Map<String, Integer> active) {
    var replicas = new LinkedHashMap<String, Object>();
    active.forEach((type, n) -> replicas.put(type, Map.of("active", n)));
    update(
        at,
        status -> {
          status.put("replicaStatuses", replicas);
          status.putIfAbsent("startTime", now());
          set(status, "Running", "True", reason(at, "Running"), message(at, "is running."));
        });
  }

  public void restarting(Attempt at, String type, int failed) {
    update(
        at,
        status -> {
          replica(status, type).put("failed", failed);
          set(
              status,
              "Restarting",
              "True",
              reason(at, "Restarting"),
              at.kind().kind()
                  + " "
                  + at.name()
                  + " is restarting because "
                  + failed
                  + " "
                  + type
                  + " replica(s) failed.");
        });
  }

  public void succeeded(Attempt at) {
    update(
        at,
        status -> {
          status.put("completionTime", now());
          set(
              status,
              "Succeeded",
              "True",
              reason(at, "Succeeded"),
              message(at, "is successfully completed."));
        });
  }

  public void failed(Attempt at, String type, int failed) {
    update(
        at,
        status -> {
          replica(status, type).put("failed", failed);
          status.put("completionTime", now());
          set(
              status,
              "Failed",
              "True",
              reason(at, "Failed"),
              at.kind().kind()
                  + " "
                  + at.name()
                  + " is failed because "
                  + failed
                  + " "
                  + type
                  + " replica(s) failed.");
        });
  }

  /** What the operator writes when Kueue (or anyone) sets {@code runPolicy.suspend}. */
  public void suspended(Attempt at) {
    condition(at, "Suspended", "True", reason(at, "Suspended"), message(at, "is suspended."));
  }

  public void resumed(Attempt at) {
    condition(at, "Suspended", "False", reason(at, "Resumed"), message(at, "is resumed."));
  }

  /** Pods {@code <name>-<type>-<index>} with the operator's labels, running. */
  public List<String> pods(Attempt at, Map<String, Integer> replicas) {
    var names = new ArrayList<String>();
    replicas.forEach(
        (type, count) -> {
          for (int i = 0; i < count; i++) {
            var name = at.name() + "-" + type.toLowerCase() + "-" + i;
            client
                .pods()
                .inNamespace(at.namespace())
                .resource(
                    new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(at.namespace())
                        .addToLabels(ReplicaPod.JOB_NAME_LABEL, at.name())
                        .addToLabels(ReplicaPod.REPLICA_TYPE_LABEL, type.toLowerCase())
                        .addToLabels(ReplicaPod.REPLICA_INDEX_LABEL, Integer.toString(i))
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName(at.kind().v1().orElseThrow().containerName())
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
            names.add(name);
          }
        });
    return names;
  }

  /** Deletes the job, as its TTL or a person with kubectl would. */
  public void delete(Attempt at) {
    client
        .genericKubernetesResources(KubeflowJobApi.context(at.kind()))
        .inNamespace(at.namespace())
        .withName(at.name())
        .delete();
  }

  public GenericKubernetesResource get(Attempt at) {
    return client
        .genericKubernetesResources(KubeflowJobApi.context(at.kind()))
        .inNamespace(at.namespace())
        .withName(at.name())
        .get();
  }

  private void condition(Attempt at, String type, String value, String reason, String message) {
    update(at, status -> set(status, type, value, reason, message));
  }

  private interface StatusChange {
    void apply(Map<String, Object> status);
  }

  @SuppressWarnings("unchecked")
  private void update(Attempt at, StatusChange change) {
    var job = get(at);
    var status =
        new LinkedHashMap<String, Object>(
            (Map<String, Object>) job.getAdditionalProperties().getOrDefault("status", Map.of()));
    change.apply(status);
    job.getAdditionalProperties().put("status", status);
    client
        .genericKubernetesResources(KubeflowJobApi.context(at.kind()))
        .inNamespace(at.namespace())
        .resource(job)
        .updateStatus();
  }

  /** The operator's setCondition with its filterOutCondition, as in pkg/util/status.go. */
  @SuppressWarnings("unchecked")
  private void set(
      Map<String, Object> status, String type, String value, String reason, String message) {
    var conditions =
        new ArrayList<Map<String, Object>>(
            (List<Map<String, Object>>) status.getOrDefault("conditions", List.of()));
    if (conditions.stream()
        .anyMatch(c -> "Failed".equals(c.get("type")) && "True".equals(c.get("status")))) {
      return;
    }
    var current = conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
    if (current.isPresent()
        && value.equals(current.get().get("status"))
        && reason.equals(current.get().get("reason"))) {
      return;
    }
    var transition =
        current.isPresent() && value.equals(current.get().get("status"))
            ? current.get().get("lastTransitionTime")
            : now();
    var kept = new ArrayList<Map<String, Object>>();
    for (var c : conditions) {
      var t = c.get("type");
      if (t.equals(type)
          || ("Restarting".equals(type) && "Running".equals(t))
          || ("Running".equals(type) && "Restarting".equals(t))) {
        continue;
      }
      var copy = new LinkedHashMap<>(c);
      if (("Failed".equals(type) || "Succeeded".equals(type)) && "Running".equals(t)) {
        copy.put("status", "False");
      }
      kept.add(copy);
    }
    var condition = new LinkedHashMap<String, Object>();
    condition.put("type", type);
    condition.put("status", value);
    condition.put("reason", reason);
    condition.put("message", message);
    condition.put("lastUpdateTime", now());
    condition.put("lastTransitionTime", transition);
    kept.add(condition);
    status.put("conditions", kept);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> replica(Map<String, Object> status, String type) {
    var replicas =
        new LinkedHashMap<String, Object>(
            (Map<String, Object>) status.getOrDefault("replicaStatuses", Map.of()));
    var one =
        new LinkedHashMap<String, Object>(
            (Map<String, Object>) replicas.getOrDefault(type, Map.of()));
    replicas.put(type, one);
    status.put("replicaStatuses", replicas);
    return one;
  }

  private static String reason(Attempt at, String what) {
    return at.kind().kind() + what;
  }

  private static String message(Attempt at, String what) {
    return at.kind().kind() + " " + at.name() + " " + what;
  }

  // metav1.Time is written to the second.
  private String now() {
    return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  static Attempt attempt(JobKind kind, String namespace, String name) {
    return new Attempt(kind, namespace, name);
  }

  /** The attempt object {@code namespace/name} of a PyTorchJob, for tests of other modules. */
  public static Attempt pytorchJob(String namespace, String name) {
    return new Attempt(JobKind.PYTORCH_JOB, namespace, name);
  }

  /** The attempt object {@code namespace/name} of an XGBoostJob, for tests of other modules. */
  public static Attempt xgboostJob(String namespace, String name) {
    return new Attempt(JobKind.XGBOOST_JOB, namespace, name);
  }
}
