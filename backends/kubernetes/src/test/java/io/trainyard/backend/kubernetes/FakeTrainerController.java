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
 * Stands in for Kubeflow Trainer's TrainJob controller: writes a TrainJob's {@code status} through
 * the status subresource the way it does. Conditions are {@code metav1.Condition}s set as
 * apimachinery's {@code meta.SetStatusCondition} sets them (one per type; {@code
 * lastTransitionTime} moves only when {@code status} changes): {@code Suspended} with reason {@code
 * Suspended}/{@code Resumed} and the controller's messages, {@code Complete}/{@code Failed} copied
 * from its JobSet ({@code AllJobsCompleted}, {@code FailedJobs} and JobSet's messages). {@code
 * jobsStatus} lists the runtime's replicated job {@code node} with its child Jobs' counts. Also
 * creates the JobSet's pods with JobSet's and the Job controller's labels, for log tests.
 */
public final class FakeTrainerController {
  private final KubernetesClient client;
  private final Clock clock;

  public FakeTrainerController(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** The attempt object {@code namespace/name} of a TrainJob, for tests of other modules. */
  public static Attempt trainJob(String namespace, String name) {
    return new Attempt(JobKind.TRAIN_JOB, namespace, name);
  }

  /** What the controller writes while Kueue holds the TrainJob ({@code spec.suspend: true}). */
  void suspended(Attempt at) {
    update(
        at,
        status -> {
          condition(status, "Suspended", "True", "Suspended", "TrainJob is suspended");
          jobs(status, 0, 0, 0, 0, 1);
        });
  }

  void resumed(Attempt at) {
    update(at, status -> condition(status, "Suspended", "False", "Resumed", "TrainJob is resumed"));
  }

  /** The JobSet exists and its node Job has {@code active} pods running or pending. */
  public void running(Attempt at) {
    update(at, status -> jobs(status, 1, 0, 0, 1, 0));
  }

  public void complete(Attempt at) {
    update(
        at,
        status -> {
          condition(
              status, "Complete", "True", "AllJobsCompleted", "jobset completed successfully");
          jobs(status, 0, 1, 0, 0, 0);
        });
  }

  void failed(Attempt at) {
    update(
        at,
        status -> {
          condition(
              status,
              "Failed",
              "True",
              "FailedJobs",
              "jobset failed due to one or more job failures");
          jobs(status, 0, 0, 1, 0, 0);
        });
  }

  /** The JobSet's pods {@code <name>-node-0-<index>-x}, with JobSet's labels, running. */
  List<String> pods(Attempt at, int nodes) {
    var names = new ArrayList<String>();
    for (int i = 0; i < nodes; i++) {
      var name = at.name() + "-node-0-" + i + "-x";
      client
          .pods()
          .inNamespace(at.namespace())
          .resource(
              new PodBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .withNamespace(at.namespace())
                  .addToLabels(ReplicaPod.JOBSET_NAME_LABEL, at.name())
                  .addToLabels(ReplicaPod.REPLICATED_JOB_LABEL, "node")
                  .addToLabels("jobset.sigs.k8s.io/job-index", "0")
                  .addToLabels(ReplicaPod.COMPLETION_INDEX, Integer.toString(i))
                  .endMetadata()
                  .withNewSpec()
                  .addNewContainer()
                  .withName("node")
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
    return names;
  }

  void delete(Attempt at) {
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

  /** apimachinery's meta.SetStatusCondition. */
  @SuppressWarnings("unchecked")
  private void condition(
      Map<String, Object> status, String type, String value, String reason, String message) {
    var conditions =
        new ArrayList<Map<String, Object>>(
            (List<Map<String, Object>>) status.getOrDefault("conditions", List.of()));
    var existing = conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
    var condition = new LinkedHashMap<String, Object>();
    condition.put("type", type);
    condition.put("status", value);
    condition.put(
        "lastTransitionTime",
        existing.isPresent() && value.equals(existing.get().get("status"))
            ? existing.get().get("lastTransitionTime")
            : now());
    condition.put("reason", reason);
    condition.put("message", message);
    if (existing.isPresent()) {
      conditions.set(conditions.indexOf(existing.get()), condition);
    } else {
      conditions.add(condition);
    }
    status.put("conditions", conditions);
  }

  private static void jobs(
      Map<String, Object> status, int ready, int succeeded, int failed, int active, int suspended) {
    var node = new LinkedHashMap<String, Object>();
    node.put("name", "node");
    node.put("ready", ready);
    node.put("succeeded", succeeded);
    node.put("failed", failed);
    node.put("active", active);
    node.put("suspended", suspended);
    status.put("jobsStatus", List.of(node));
  }

  // metav1.Time is written to the second.
  private String now() {
    return clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
