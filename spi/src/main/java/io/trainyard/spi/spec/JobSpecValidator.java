package io.trainyard.spi.spec;

import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a parsed {@link TrainingJob} and reports every problem at once, each with the path of its
 * field. Stateless and thread-safe. What a particular backend cannot do is not checked here: that
 * is the backend's {@code Rejection}.
 */
public final class JobSpecValidator {
  /** Kubernetes' DNS-1123 label: what job names must be, so they can name backend objects. */
  public static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final int MAX_PROCESSES_PER_REPLICA = 1_024;
  private static final int MAX_RESTARTS = 10_000;
  private static final int MAX_NAME = 63;
  private static final int MAX_REPLICAS_PER_ROLE = 1_000;
  private static final int MAX_GPUS_PER_REPLICA = 64;

  public List<FieldError> validate(TrainingJob job) {
    var errors = new ArrayList<FieldError>();
    if (!TrainingJob.API_VERSION.equals(job.apiVersion())) {
      errors.add(new FieldError("apiVersion", "must be " + TrainingJob.API_VERSION));
    }
    if (!TrainingJob.KIND.equals(job.kind())) {
      errors.add(new FieldError("kind", "must be " + TrainingJob.KIND));
    }
    metadata(job.metadata(), errors);
    if (job.spec() == null) {
      errors.add(new FieldError("spec", "is required"));
    } else {
      spec(job.spec(), errors);
    }
    TextFieldsValidator.check(job, errors);
    return List.copyOf(errors);
  }

  private void metadata(ObjectMeta meta, List<FieldError> errors) {
    if (meta != null && meta.name() == null && meta.generateName() != null) {
      // The prefix of a name made later: the whole name must be a DNS-1123 label.
      var prefix = meta.generateName();
      if (prefix.length() > MAX_NAME - ObjectMeta.SUFFIX_LENGTH
          || !DNS1123_LABEL.matcher(prefix + "x").matches()) {
        errors.add(
            new FieldError(
                "metadata.generateName",
                "must be the start of a DNS-1123 label: lower-case letters, digits and '-',"
                    + " starting with a letter or digit, at most "
                    + (MAX_NAME - ObjectMeta.SUFFIX_LENGTH)
                    + " characters"));
      }
    } else if (meta == null || meta.name() == null || meta.name().isBlank()) {
      errors.add(new FieldError("metadata.name", "is required (or metadata.generateName)"));
      return;
    } else {
      dnsLabel("metadata.name", meta.name(), errors);
    }
    if (meta.team() != null) {
      dnsLabel("metadata.team", meta.team(), errors);
    }
    labels("metadata.labels", meta.labels(), errors);
  }

  private static void labels(String at, Map<String, String> labels, List<FieldError> errors) {
    labels.forEach(
        (k, v) -> {
          if (!KubernetesNames.isLabelKey(k)) {
            errors.add(new FieldError(at + "." + k, LABEL_KEY));
          }
          if (v == null || !KubernetesNames.isLabelValue(v)) {
            errors.add(
                new FieldError(
                    at + "." + k,
                    "must be a label value: at most 63 letters, digits, '-', '_' or '.',"
                        + " starting and ending with a letter or digit"));
          }
        });
  }

  private static final String LABEL_KEY =
      "is not a valid label key: an optional DNS subdomain and '/', then at most 63 letters,"
          + " digits, '-', '_' or '.', starting and ending with a letter or digit";

  /** Annotation keys follow the label key rules; values are any text, 256 KiB in all. */
  private static void annotations(
      String at, Map<String, String> annotations, List<FieldError> errors) {
    var total = 0L;
    for (var e : annotations.entrySet()) {
      if (!KubernetesNames.isLabelKey(e.getKey())) {
        errors.add(new FieldError(at + "." + e.getKey(), LABEL_KEY.replace("label", "annotation")));
      }
      if (e.getValue() == null) {
        errors.add(new FieldError(at + "." + e.getKey(), "must be a string"));
      } else {
        total += e.getKey().length() + e.getValue().length();
      }
    }
    if (total > 256 * 1024) {
      errors.add(new FieldError(at, "must be at most 256 KiB in all, as Kubernetes allows"));
    }
  }

  private static void dnsLabel(String field, String value, List<FieldError> errors) {
    if (value.length() > MAX_NAME || !DNS1123_LABEL.matcher(value).matches()) {
      errors.add(
          new FieldError(
              field,
              "'"
                  + value
                  + "' is not a DNS-1123 label: lower-case letters, digits and '-', starting and"
                  + " ending with a letter or digit, at most 63 characters"));
    }
  }

  private void spec(JobSpec spec, List<FieldError> errors) {
    if (spec.framework() == null) {
      errors.add(new FieldError("spec.framework", "is required"));
      return; // roles cannot be checked without it
    }
    replicas(spec, errors);
    roleImages(spec, errors);
    resources("spec.resources", spec.resources(), errors);
    roleOverrides(spec, errors);
    env("spec.env", spec.env(), errors);
    secretEnv("spec.secretEnv", spec.secretEnv(), spec.env().keySet(), errors);
    if (spec.kubernetes() != null) {
      PodTemplateValues.check(
          "spec.kubernetes.podTemplate", spec.kubernetes().podTemplate(), errors);
      scheduling(spec.kubernetes().scheduling(), errors);
      labels("spec.kubernetes.jobLabels", spec.kubernetes().jobLabels(), errors);
      annotations("spec.kubernetes.jobAnnotations", spec.kubernetes().jobAnnotations(), errors);
      if (spec.kubernetes().mpi() != null) {
        errors.addAll(spec.kubernetes().mpi().validate("spec.kubernetes.mpi"));
        if (spec.framework() != Framework.MPI) {
          errors.add(new FieldError("spec.kubernetes.mpi", "applies only to framework mpi"));
        }
      }
      spec.kubernetes().trainJob().keySet().stream()
          .filter(k -> !KubernetesOptions.TRAIN_JOB_FIELDS.contains(k))
          .forEach(
              k ->
                  errors.add(
                      new FieldError(
                          "spec.kubernetes.trainJob." + k,
                          "is not a TrainJob field Trainyard carries; one of "
                              + String.join(
                                  ", ",
                                  new java.util.TreeSet<>(KubernetesOptions.TRAIN_JOB_FIELDS)))));
    }
    priorityAndAlgorithm(spec, errors);
    positive("spec.processesPerReplica", spec.processesPerReplica(), errors);
    atMost(
        "spec.processesPerReplica", spec.processesPerReplica(), MAX_PROCESSES_PER_REPLICA, errors);
    ElasticValidator.check(spec, errors);
    decimal("spec.estimatedHours", spec.estimatedHours(), InputLimits.MAX_ESTIMATED_HOURS, errors);
    duration("spec.maxRuntime", spec.maxRuntime(), false, errors);
    if (spec.maxRestarts() != null && spec.maxRestarts() < 0) {
      errors.add(new FieldError("spec.maxRestarts", "must be 0 or more"));
    }
    atMost("spec.maxRestarts", spec.maxRestarts(), MAX_RESTARTS, errors);
    if (spec.cleanup() != null) {
      // 0s is meaningful here (delete the job object as soon as it ends), unlike maxRuntime.
      duration("spec.cleanup.ttlAfterFinished", spec.cleanup().ttlAfterFinished(), true, errors);
    }
    uri("spec.checkpoint.uri", spec.checkpoint() == null ? null : spec.checkpoint().uri(), errors);
    uri("spec.output.uri", spec.output() == null ? null : spec.output().uri(), errors);
    inputs(spec, errors);
    volumes(spec, errors);
    placement(spec.effectivePlacement(), errors);
  }

  private void roleOverrides(JobSpec spec, List<FieldError> errors) {
    spec.roles()
        .forEach(
            (role, o) -> {
              var at = "spec.roles." + role;
              if (!spec.framework().roles().contains(role)) {
                errors.add(new FieldError(at, unknownRole(spec.framework(), role)));
              } else if (!spec.replicas().containsKey(role)) {
                errors.add(new FieldError(at, "overrides a role that has no replicas"));
              }
              if (o == null) {
                errors.add(new FieldError(at, "must be an object"));
                return;
              }
              resources(at + ".resources", o.resources(), errors);
              env(at + ".env", o.env(), errors);
              var roleEnv = new HashSet<>(spec.env().keySet());
              roleEnv.addAll(o.env().keySet());
              secretEnv(at + ".secretEnv", o.secretEnv(), roleEnv, errors);
              if (o.kubernetes() != null) {
                PodTemplateValues.check(
                    at + ".kubernetes.podTemplate", o.kubernetes().podTemplate(), errors);
              }
              if (o.kubernetes() != null && o.kubernetes().scheduling() != null) {
                errors.add(
                    new FieldError(
                        at + ".kubernetes.scheduling",
                        "is job-wide: set spec.kubernetes.scheduling instead"));
              }
              if (o.kubernetes() != null && !o.kubernetes().jobLabels().isEmpty()) {
                errors.add(
                    new FieldError(
                        at + ".kubernetes.jobLabels",
                        "is job-wide: set spec.kubernetes.jobLabels instead"));
              }
              if (o.kubernetes() != null && !o.kubernetes().jobAnnotations().isEmpty()) {
                errors.add(
                    new FieldError(
                        at + ".kubernetes.jobAnnotations",
                        "is job-wide: set spec.kubernetes.jobAnnotations instead"));
              }
              if (o.kubernetes() != null && o.kubernetes().mpi() != null) {
                errors.add(
                    new FieldError(
                        at + ".kubernetes.mpi", "is job-wide: set spec.kubernetes.mpi instead"));
              }
              if (o.kubernetes() != null && !o.kubernetes().trainJob().isEmpty()) {
                errors.add(
                    new FieldError(
                        at + ".kubernetes.trainJob",
                        "is job-wide: set spec.kubernetes.trainJob instead"));
              }
            });
  }

  private static String unknownRole(Framework framework, String role) {
    return "unknown role '"
        + role
        + "' for "
        + framework.wireName()
        + "; one of "
        + String.join(", ", framework.roles());
  }

  private void replicas(JobSpec spec, List<FieldError> errors) {
    if (spec.replicas().isEmpty()) {
      errors.add(
          new FieldError(
              "spec.replicas",
              "is required: a count per role, e.g. {"
                  + spec.framework().roles().get(0)
                  + ": 1, worker: 1}"));
      return;
    }
    spec.replicas()
        .forEach(
            (role, count) -> {
              var at = "spec.replicas." + role;
              if (!spec.framework().roles().contains(role)) {
                errors.add(new FieldError(at, unknownRole(spec.framework(), role)));
              } else if (count == null || count < 1) {
                errors.add(new FieldError(at, "must be at least 1 (leave the role out instead)"));
              } else if (count > MAX_REPLICAS_PER_ROLE) {
                errors.add(new FieldError(at, "must be at most " + MAX_REPLICAS_PER_ROLE));
              } else if (count > 1 && spec.framework().isSingleton(role)) {
                errors.add(new FieldError(at, "a " + spec.framework() + " job has one " + role));
              }
            });
    if (spec.framework() == Framework.MPI && !spec.replicas().containsKey("launcher")) {
      errors.add(new FieldError("spec.replicas.launcher", "an mpi job needs one launcher"));
    }
  }

  private void roleImages(JobSpec spec, List<FieldError> errors) {
    for (var role : spec.replicas().keySet()) {
      var o = spec.roles().get(role);
      var image = o != null && o.image() != null ? o.image() : spec.image();
      if (image == null || image.isBlank()) {
        errors.add(new FieldError("spec.image", "is required (or spec.roles." + role + ".image)"));
        return;
      }
    }
  }

  private void resources(String at, Resources r, List<FieldError> errors) {
    if (r == null) {
      return;
    }
    if (r.gpus() != null && (r.gpus() < 0 || r.gpus() > MAX_GPUS_PER_REPLICA)) {
      errors.add(new FieldError(at + ".gpus", "must be between 0 and " + MAX_GPUS_PER_REPLICA));
    }
    // No gpuType means any GPU type: Kubeflow documents ask for nvidia.com/gpu without one.
    if (r.gpuType() != null && r.gpuType().isBlank()) {
      errors.add(new FieldError(at + ".gpuType", "must not be empty (leave it out for any type)"));
    }
    // A millicore is the least Kubernetes (and any scheduler) counts: less is no CPU at all.
    if (r.cpus() != null && !(r.cpus() >= 0.001 && r.cpus() <= InputLimits.MAX_CPUS)) {
      errors.add(
          new FieldError(
              at + ".cpus",
              "must be a number from 0.001 (a millicore) to " + (long) InputLimits.MAX_CPUS));
    }
    if (r.memory() != null) {
      try {
        if (Quantities.bytes(r.memory()) <= 0) {
          errors.add(new FieldError(at + ".memory", "must be greater than 0"));
        }
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError(at + ".memory", e.getMessage()));
      }
    }
  }

  private void env(String at, Map<String, String> env, List<FieldError> errors) {
    env.forEach(
        (k, v) -> {
          if (!ENV_NAME.matcher(k).matches()) {
            errors.add(new FieldError(at + "." + k, "is not a valid environment variable name"));
          }
          if (v == null) {
            errors.add(new FieldError(at + "." + k, "must be a string"));
          }
          // The value's characters are checked with the other free text (TextFieldsValidator).
        });
  }

  private void secretEnv(
      String prefix,
      Map<String, SecretRef> secretEnv,
      java.util.Set<String> envNames,
      List<FieldError> errors) {
    secretEnv.forEach(
        (name, ref) -> {
          var at = prefix + "." + name;
          if (!ENV_NAME.matcher(name).matches()) {
            errors.add(new FieldError(at, "is not a valid environment variable name"));
          }
          if (envNames.contains(name)) {
            errors.add(new FieldError(at, "is also set in env"));
          }
          if (ref == null) {
            errors.add(new FieldError(at, "must be {secret: NAME, key: KEY}"));
            return;
          }
          if (!KubernetesNames.isSubdomain(ref.secret())) {
            errors.add(
                new FieldError(
                    at + ".secret", "is not a valid secret name (a DNS-1123 subdomain)"));
          }
          if (!KubernetesNames.isSecretKey(ref.key())) {
            errors.add(
                new FieldError(
                    at + ".key",
                    "is not a valid secret key: letters, digits, '-', '_' and '.', not '.' or"
                        + " '..'"));
          }
        });
  }

  private void scheduling(Scheduling s, List<FieldError> errors) {
    if (s == null) {
      return;
    }
    var at = "spec.kubernetes.scheduling";
    positive(at + ".minAvailable", s.minAvailable(), errors);
    positive(at + ".scheduleTimeoutSeconds", s.scheduleTimeoutSeconds(), errors);
    if (s.queue() != null && s.queue().isBlank()) {
      errors.add(new FieldError(at + ".queue", "must not be empty"));
    }
    if (s.priorityClass() != null && !DNS1123_SUBDOMAIN.matcher(s.priorityClass()).matches()) {
      errors.add(new FieldError(at + ".priorityClass", "is not a PriorityClass name"));
    }
    s.minResources()
        .forEach(
            (name, quantity) -> {
              if (quantity == null || quantity.isBlank()) {
                errors.add(new FieldError(at + ".minResources." + name, "must be a quantity"));
              }
            });
  }

  private void inputs(JobSpec spec, List<FieldError> errors) {
    var names = new HashSet<String>();
    for (int i = 0; i < spec.inputs().size(); i++) {
      var in = spec.inputs().get(i);
      var at = "spec.inputs[" + i + "]";
      if (in == null || in.name() == null || !DNS1123_LABEL.matcher(in.name()).matches()) {
        errors.add(new FieldError(at + ".name", "is required: a DNS-1123 label"));
      } else if (!names.add(in.name())) {
        errors.add(new FieldError(at + ".name", "'" + in.name() + "' is used twice"));
      }
      if (in == null || in.uri() == null) {
        errors.add(new FieldError(at + ".uri", "is required"));
      } else {
        uri(at + ".uri", in.uri(), errors);
      }
    }
  }

  private void volumes(JobSpec spec, List<FieldError> errors) {
    for (int i = 0; i < spec.volumes().size(); i++) {
      var v = spec.volumes().get(i);
      var at = "spec.volumes[" + i + "]";
      if (v == null || v.name() == null || !DNS1123_LABEL.matcher(v.name()).matches()) {
        errors.add(new FieldError(at + ".name", "is required: a DNS-1123 label"));
      }
      if (v == null || v.claim() == null || !DNS1123_SUBDOMAIN.matcher(v.claim()).matches()) {
        errors.add(new FieldError(at + ".claim", "is required: a PersistentVolumeClaim name"));
      }
      if (v == null || v.mountPath() == null || !v.mountPath().startsWith("/")) {
        errors.add(new FieldError(at + ".mountPath", "is required: an absolute path"));
      }
    }
  }

  private void placement(PlacementSpec p, List<FieldError> errors) {
    decimal("spec.placement.maxHourlyUsd", p.maxHourlyUsd(), InputLimits.MAX_HOURLY_USD, errors);
    if (p.within() != null) {
      if (p.effectivePolicy() != PlacementPolicy.CHEAPEST_WITHIN) {
        errors.add(
            new FieldError("spec.placement.within", "applies only to policy cheapest-within"));
      } else if (p.within().compareTo(java.math.BigDecimal.ONE) < 0
          || p.within().compareTo(java.math.BigDecimal.TEN) > 0) {
        errors.add(
            new FieldError(
                "spec.placement.within",
                "must be between 1 (the cheapest only) and 10 (ten times its cost)"));
      }
    }
    duration("spec.placement.spotNeedsCheckpointAfter", p.spotNeedsCheckpointAfter(), true, errors);
    if (p.effectivePolicy() == PlacementPolicy.PINNED && p.backends().size() != 1) {
      errors.add(
          new FieldError("spec.placement.backends", "policy pinned needs exactly one backend"));
    }
    for (int i = 0; i < p.regions().size(); i++) {
      if (p.regions().get(i) == null || p.regions().get(i).isBlank()) {
        errors.add(new FieldError("spec.placement.regions[" + i + "]", "must not be empty"));
      }
    }
  }

  /** Greater than 0 and at most {@code max}; compared without converting the number. */
  private static void decimal(String at, BigDecimal value, BigDecimal max, List<FieldError> e) {
    // inRange refuses 1e-999999999, which is above 0 but would expand when priced.
    if (value != null
        && (value.signum() <= 0 || value.compareTo(max) > 0 || !InputLimits.inRange(value))) {
      e.add(
          new FieldError(
              at,
              "must be greater than 0 and at most "
                  + max.toPlainString()
                  + " (and at least 1e-"
                  + InputLimits.MAX_EXPONENT
                  + ")"));
    }
  }

  private static void atMost(String at, Integer value, int max, List<FieldError> errors) {
    if (value != null && value > max) {
      errors.add(new FieldError(at, "must be at most " + max));
    }
  }

  /** The highest {@code spec.priority}. */
  public static final int MAX_PRIORITY = 1_000;

  /** {@code [team/]name[@version|@default]}: DNS-1123 labels and a positive whole version. */
  public static final java.util.regex.Pattern ALGORITHM_REFERENCE =
      java.util.regex.Pattern.compile(
          "(?:([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)/)?([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)"
              + "(?:@([1-9][0-9]{0,8}|default))?");

  private static void priorityAndAlgorithm(JobSpec spec, List<FieldError> errors) {
    if (spec.priority() != null && (spec.priority() < 0 || spec.priority() > MAX_PRIORITY)) {
      errors.add(new FieldError("spec.priority", "must be between 0 and " + MAX_PRIORITY));
    }
    if (spec.algorithm() != null && !ALGORITHM_REFERENCE.matcher(spec.algorithm()).matches()) {
      errors.add(
          new FieldError(
              "spec.algorithm",
              "must be [team/]name[@version], e.g. nlp/bert-classifier@3 or bert-classifier"
                  + "@default: DNS-1123 labels and a whole version"));
    }
    if (!spec.hyperparameters().isEmpty() && spec.algorithm() == null) {
      errors.add(
          new FieldError(
              "spec.hyperparameters",
              "apply only to a registered algorithm: set spec.algorithm, or pass them in"
                  + " spec.args"));
    }
    spec.hyperparameters()
        .forEach(
            (name, value) -> {
              if (!(value instanceof Number
                  || value instanceof String
                  || value instanceof Boolean)) {
                errors.add(
                    new FieldError(
                        "spec.hyperparameters." + name, "must be a number, a string or a boolean"));
              }
            });
  }

  private static void positive(String at, Integer value, List<FieldError> errors) {
    if (value != null && value < 1) {
      errors.add(new FieldError(at, "must be at least 1"));
    }
  }

  private static void duration(
      String at, String value, boolean zeroAllowed, List<FieldError> errors) {
    if (value == null) {
      return;
    }
    try {
      if (Quantities.duration(value).isZero() && !zeroAllowed) {
        errors.add(new FieldError(at, "must be longer than 0"));
      }
    } catch (IllegalArgumentException e) {
      errors.add(new FieldError(at, e.getMessage()));
    }
  }

  private static void uri(String at, String value, List<FieldError> errors) {
    if (value == null) {
      return;
    }
    try {
      var u = new URI(value);
      if (u.getScheme() == null) {
        errors.add(new FieldError(at, "must be an absolute URI such as s3://bucket/path/"));
      }
    } catch (java.net.URISyntaxException e) {
      errors.add(new FieldError(at, "is not a URI: " + e.getReason()));
    }
  }
}
