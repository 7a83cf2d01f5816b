package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What only Kubernetes can honour. Present (non-empty) → managed backends reject the job with that
 * reason.
 *
 * <p>{@code podTemplate} is a partial Kubernetes pod spec, kept as the document's own tree:
 *
 * <ul>
 *   <li>pod-spec fields at the top: {@code nodeSelector}, {@code tolerations}, {@code affinity},
 *       {@code imagePullSecrets}, {@code volumes}, {@code securityContext}, {@code
 *       serviceAccountName}, {@code initContainers}, ...;
 *   <li>{@code metadata}: the pod template's own {@code labels} and {@code annotations} (not the
 *       job's; a pod spec has no field of that name, so the two cannot collide);
 *   <li>{@code containers}: merged by {@code name} into the pods a backend renders. The entry named
 *       as the framework's container ({@code pytorch}, {@code tensorflow}, {@code mpi}, {@code
 *       xgboost}) holds only the fields the spec has no place for ({@code volumeMounts}, {@code
 *       securityContext}, {@code ports}, ...); any other entry is a whole extra container.
 * </ul>
 *
 * <p>In a role's override the podTemplate's top-level keys replace the defaults' keys of the same
 * name (a shallow merge), so a role can differ in {@code tolerations} alone.
 *
 * <p>{@code jobLabels} and {@code jobAnnotations} go on the job object itself (a Kueue queue name,
 * a vendor's auto-resume flag), beside the labels the backend sets, which win on a clash. They do
 * not make a job Kubernetes-only: managed backends map labels to their own tags where they can and
 * say what they leave out.
 *
 * <p>{@code trainJob} holds, as the document's own trees, the parts of a Kubeflow Trainer {@code
 * TrainJob} ({@code trainer.kubeflow.org/v1alpha1}) that the spec has no field for, so that a
 * cluster running Kubeflow Trainer renders them back: keys named as the TrainJob's {@code spec}
 * fields ({@link #TRAIN_JOB_FIELDS}). {@code runtimeRef} only says which runtime to run on (the
 * spec's framework already says what runs); every other key can be honoured by a Kubeflow Trainer
 * cluster only, and any other backend rejects the job with that reason.
 *
 * @param podTemplate the pod-template fields above; never null
 * @param scheduling gang scheduling; job-wide, so only meaningful at {@code spec.kubernetes}
 * @param jobLabels labels of the job object, in order; never null; job-wide
 * @param jobAnnotations annotations of the job object, in order; never null; job-wide
 * @param trainJob TrainJob parts (see above); never null; job-wide, so only at {@code
 *     spec.kubernetes}
 * @param mpi MPI Operator v2 settings ({@link MpiOptions}); null = the operator's defaults;
 *     job-wide, so only at {@code spec.kubernetes}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record KubernetesOptions(
    Map<String, Object> podTemplate,
    Scheduling scheduling,
    Map<String, String> jobLabels,
    Map<String, String> jobAnnotations,
    Map<String, Object> trainJob,
    MpiOptions mpi) {
  public static final KubernetesOptions NONE = new KubernetesOptions(null, null);

  /** The TrainJob {@code spec} fields {@code trainJob} may hold. */
  public static final java.util.Set<String> TRAIN_JOB_FIELDS =
      java.util.Set.of(
          "runtimeRef",
          "initializer",
          "labels",
          "annotations",
          "managedBy",
          "podTemplateOverrides");

  public KubernetesOptions {
    podTemplate = podTemplate == null ? Map.of() : copy(podTemplate);
    jobLabels =
        jobLabels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(jobLabels));
    jobAnnotations =
        jobAnnotations == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(jobAnnotations));
    trainJob = trainJob == null ? Map.of() : copy(trainJob);
  }

  /** Everything but MPI Operator v2 settings. */
  public KubernetesOptions(
      Map<String, Object> podTemplate,
      Scheduling scheduling,
      Map<String, String> jobLabels,
      Map<String, String> jobAnnotations,
      Map<String, Object> trainJob) {
    this(podTemplate, scheduling, jobLabels, jobAnnotations, trainJob, null);
  }

  /** Pod-template fields and gang scheduling. */
  public KubernetesOptions(Map<String, Object> podTemplate, Scheduling scheduling) {
    this(podTemplate, scheduling, null, null, null);
  }

  /** Pod-template fields only. */
  public KubernetesOptions(Map<String, Object> podTemplate) {
    this(podTemplate, null);
  }

  /**
   * The {@code trainJob} keys that only a Kubeflow Trainer cluster can honour (all but {@code
   * runtimeRef}), in the document's order.
   */
  @JsonIgnore
  public java.util.List<String> trainerOnlyFields() {
    return trainJob.keySet().stream().filter(k -> !k.equals("runtimeRef")).toList();
  }

  private static Map<String, Object> copy(Map<String, Object> tree) {
    // Jackson may hand us nulls inside the tree, which Map.copyOf refuses; order is the user's.
    return Collections.unmodifiableMap(new LinkedHashMap<>(tree));
  }

  /** Nothing at all: no pod fields, gang scheduling, job labels or annotations, TrainJob parts. */
  @JsonIgnore
  public boolean isEmpty() {
    return !needsKubernetes()
        && jobLabels.isEmpty()
        && jobAnnotations.isEmpty()
        && trainJob.isEmpty()
        && mpi == null;
  }

  /**
   * True when these options ask for what only Kubernetes (or only Kubeflow Trainer) can do: pod
   * fields, gang scheduling, TrainJob parts other than the runtime's name, MPI settings other than
   * the MPI Operator's defaults.
   */
  @JsonIgnore
  public boolean needsKubernetes() {
    return !podTemplate.isEmpty()
        || (scheduling != null && !scheduling.isEmpty())
        || !trainerOnlyFields().isEmpty()
        || (mpi != null && !mpi.isDefault());
  }

  /** These options over {@code defaults}: top-level podTemplate keys replace the defaults' keys. */
  public KubernetesOptions over(KubernetesOptions defaults) {
    if (defaults == null) {
      return this;
    }
    var merged = new LinkedHashMap<>(defaults.podTemplate);
    merged.putAll(podTemplate);
    return new KubernetesOptions(
        merged,
        scheduling != null ? scheduling : defaults.scheduling,
        jobLabels.isEmpty() ? defaults.jobLabels : jobLabels,
        jobAnnotations.isEmpty() ? defaults.jobAnnotations : jobAnnotations,
        trainJob.isEmpty() ? defaults.trainJob : trainJob,
        mpi != null ? mpi : defaults.mpi);
  }
}
