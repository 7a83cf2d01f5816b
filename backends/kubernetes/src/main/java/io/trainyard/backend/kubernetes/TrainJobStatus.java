package io.trainyard.backend.kubernetes;

import static io.trainyard.backend.kubernetes.StatusConditions.condition;
import static io.trainyard.backend.kubernetes.StatusConditions.conditions;
import static io.trainyard.backend.kubernetes.StatusConditions.instant;
import static io.trainyard.backend.kubernetes.StatusConditions.integer;
import static io.trainyard.backend.kubernetes.StatusConditions.transition;
import static io.trainyard.backend.kubernetes.StatusConditions.trueCondition;
import static io.trainyard.backend.kubernetes.StatusConditions.words;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Reads a Kubeflow Trainer {@code TrainJob}'s {@code status} the way its controller writes it
 * ({@code trainer.kubeflow.org/v1alpha1} {@code TrainJobStatus}, {@code kubeflow/trainer} {@code
 * trainjob_types.go}): {@code conditions[]} are {@code metav1.Condition}s of type {@code Suspended}
 * (reasons {@code Suspended}/{@code Resumed}, "TrainJob is suspended"), {@code Complete} and {@code
 * Failed} (the JobSet's {@code Completed}/{@code Failed} condition, renamed, with the JobSet's
 * reason and message, such as {@code AllJobsCompleted} "jobset completed successfully"; or {@code
 * TrainingRuntimeNotSupported}); releases before that also wrote {@code Created} (reasons {@code
 * JobsCreationSucceeded}, {@code JobsBuildFailed}, {@code JobsCreationFailed}). {@code
 * jobsStatus[]} has per replicated job ({@code node}, {@code dataset-initializer}, ...) the counts
 * of its child Jobs {@code ready}, {@code succeeded}, {@code failed}, {@code active} and {@code
 * suspended}. Pure.
 *
 * <p>Mapping, first match wins: {@code Failed} → FAILED and {@code Complete} → SUCCEEDED with the
 * condition's message; an object being deleted → STOPPED; {@code Suspended} → SUSPENDED (Kueue
 * holds it); a replicated job with active or ready child Jobs → RUNNING ("N of M nodes' jobs
 * active"); else → ADMITTING, with the {@code Created} condition's words when an older controller
 * wrote one ("Failed to build Jobs"). JobSet counts a child Job as active while any of its pods is
 * pending or running, so pods waiting for nodes already read as RUNNING: the admission timeout
 * covers the time before the JobSet's Jobs exist and Kueue's suspension, not unschedulable pods.
 * Restarts are the failed child Jobs ({@code jobsStatus[].failed}), which a JobSet recreates under
 * its runtime's failure policy. A TrainJob's status has no start time: {@code startedAt} is when
 * Kueue last resumed it, else its creation.
 */
final class TrainJobStatus {
  static final String SUSPENDED = "Suspended";
  static final String COMPLETE = "Complete";
  static final String FAILED = "Failed";

  /** The condition releases before v2.1 wrote about creating the JobSet. */
  static final String CREATED = "Created";

  /** This mapping as the TrainJob kind's {@link JobStatusReader}. */
  static final JobStatusReader READER =
      new JobStatusReader() {
        @Override
        public BackendStatus of(GenericKubernetesResource job) {
          return TrainJobStatus.of(job);
        }

        @Override
        public Instant waitingSince(GenericKubernetesResource job) {
          return TrainJobStatus.waitingSince(job);
        }

        @Override
        public String restartingSince(GenericKubernetesResource job) {
          return null; // no Restarting condition: failed child Jobs are the count
        }
      };

  private TrainJobStatus() {}

  static BackendStatus of(GenericKubernetesResource job) {
    var status = StatusConditions.status(job);
    var conditions = conditions(status);
    var jobs = jobsStatus(status);
    var restarts = jobs.stream().mapToInt(j -> integer(j.get("failed"))).sum();
    var started = startedAt(job, conditions);
    for (var terminal : List.of(FAILED, COMPLETE)) {
      var c = trueCondition(conditions, terminal);
      if (c != null) {
        var phase = terminal.equals(FAILED) ? BackendPhase.FAILED : BackendPhase.SUCCEEDED;
        return new BackendStatus(phase, words(c), restarts, started, transition(c));
      }
    }
    if (job.getMetadata().getDeletionTimestamp() != null) {
      return new BackendStatus(
          BackendPhase.STOPPED,
          "deleted",
          restarts,
          started,
          instant(job.getMetadata().getDeletionTimestamp()));
    }
    var suspended = trueCondition(conditions, SUSPENDED);
    if (suspended != null) {
      return new BackendStatus(BackendPhase.SUSPENDED, words(suspended), restarts, null, null);
    }
    var running = running(jobs);
    if (running != null) {
      return new BackendStatus(BackendPhase.RUNNING, running, restarts, started, null);
    }
    var created = condition(conditions, CREATED);
    return new BackendStatus(
        BackendPhase.ADMITTING, created == null ? null : words(created), restarts, null, null);
  }

  /** Since its creation, or since its latest suspension began when Kueue holds it again. */
  static Instant waitingSince(GenericKubernetesResource job) {
    var suspended = trueCondition(conditions(StatusConditions.status(job)), SUSPENDED);
    return OperatorStatus.latest(job, suspended);
  }

  /** Words for a TrainJob whose child Jobs run, or null when none does. */
  private static String running(List<Map<String, Object>> jobs) {
    var names = new StringBuilder();
    for (var j : jobs) {
      if (integer(j.get("active")) > 0 || integer(j.get("ready")) > 0) {
        names.append(names.isEmpty() ? "" : ", ").append(j.get("name"));
      }
    }
    return names.isEmpty() ? null : "jobs running: " + names;
  }

  private static Instant startedAt(
      GenericKubernetesResource job, List<Map<String, Object>> conditions) {
    var suspension = condition(conditions, SUSPENDED);
    if (suspension != null && "False".equals(suspension.get("status"))) {
      var resumed = transition(suspension);
      if (resumed != null) {
        return resumed;
      }
    }
    return instant(job.getMetadata().getCreationTimestamp());
  }

  private static List<Map<String, Object>> jobsStatus(Map<String, Object> status) {
    if (!(status.get("jobsStatus") instanceof List<?> list)) {
      return List.of();
    }
    return list.stream().map(StatusConditions::map).toList();
  }
}
