package io.trainyard.gateway.algorithms;

import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a job that names a registered algorithm ({@code spec.algorithm}) into the job it stands
 * for, before the job is validated: the version's fields are the defaults and the job's own fields
 * override them; hyperparameters are checked against the version's schema, its defaults filled in,
 * and appended to the arguments as {@code --name=value} in schema order. The result names the exact
 * version ({@code team/name@N}) forever, so later default moves never change a stored job.
 * Thread-safe when its catalog is.
 */
public final class AlgorithmResolver {
  /** Where algorithms are looked up (the store, or a map in tests). */
  public interface Catalog {
    Optional<Algorithm> find(String team, String name);

    Optional<AlgorithmVersion> version(String team, String name, int version);
  }

  /** The expanded job and what the caller should know (a deprecated version). */
  public record Resolved(TrainingJob job, List<String> warnings) {
    public Resolved {
      warnings = List.copyOf(warnings);
    }
  }

  private static final String FIELD = "spec.algorithm";

  private final Catalog catalog;

  public AlgorithmResolver(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * @param team the job's team: a bare name is looked up there, and only algorithms this team may
   *     run are found
   * @throws ApiException 422 naming {@code spec.algorithm} for an unknown, invisible or withdrawn
   *     algorithm version, or {@code spec.hyperparameters.<name>} for a value the schema refuses
   */
  public Resolved resolve(TrainingJob job, String team) {
    var spec = job.spec();
    if (spec == null || spec.algorithm() == null) {
      return new Resolved(job, List.of());
    }
    var reference = JobSpecValidator.ALGORITHM_REFERENCE.matcher(spec.algorithm());
    if (!reference.matches()) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC,
          FIELD,
          "must be [team/]name[@version], e.g. nlp/bert-classifier@3 or bert-classifier@default");
    }
    var owner = reference.group(1) != null ? reference.group(1) : team;
    var name = reference.group(2);
    var wanted = reference.group(3);
    // Another team's private algorithm answers exactly as one that does not exist.
    var algorithm =
        catalog
            .find(owner, name)
            .filter(a -> a.visibleTo(team))
            .orElseThrow(
                () ->
                    refused(
                        "no algorithm "
                            + owner
                            + "/"
                            + name
                            + " that team "
                            + team
                            + " may run; see GET /v1/algorithms"));
    int number;
    if (wanted == null || wanted.equals("default")) {
      if (algorithm.defaultVersion() == null) {
        throw refused(algorithm.qualifiedName() + " has no published version yet");
      }
      number = algorithm.defaultVersion();
    } else {
      number = Integer.parseInt(wanted);
    }
    var version =
        catalog
            .version(owner, name, number)
            .orElseThrow(() -> refused(algorithm.qualifiedName() + " has no version " + number));
    var warnings = new ArrayList<String>();
    if (version.status() == VersionStatus.WITHDRAWN) {
      throw refused(
          version.reference()
              + " is withdrawn and runs no new jobs"
              + (wanted == null || wanted.equals("default")
                  ? " (it is still the default: ask a team-admin of " + owner + " to move it)"
                  : "; choose another version"));
    }
    if (version.status() == VersionStatus.DEPRECATED) {
      warnings.add(
          "spec.algorithm: "
              + version.reference()
              + " is deprecated; it still runs, but move to a newer version");
    }
    var hyperparameters = hyperparameters(version, spec.hyperparameters());
    return new Resolved(
        new TrainingJob(
            job.apiVersion(), job.kind(), job.metadata(), merged(spec, version, hyperparameters)),
        warnings);
  }

  /** The job's values checked and completed with the schema's defaults, in schema order. */
  private static Map<String, Object> hyperparameters(
      AlgorithmVersion version, Map<String, Object> given) {
    var schema = version.definition().hyperparameters();
    var errors = new ArrayList<FieldError>();
    var known = new LinkedHashMap<String, HyperparameterSpec>();
    schema.forEach(h -> known.put(h.name(), h));
    given.keySet().stream()
        .filter(k -> !known.containsKey(k))
        .forEach(
            k ->
                errors.add(
                    new FieldError(
                        "spec.hyperparameters." + k,
                        "is not a hyperparameter of "
                            + version.reference()
                            + (known.isEmpty()
                                ? " (it has none)"
                                : " (it has " + String.join(", ", known.keySet()) + ")"))));
    var merged = new LinkedHashMap<String, Object>();
    for (var h : schema) {
      var value = given.containsKey(h.name()) ? given.get(h.name()) : h.defaultValue();
      if (value == null) {
        if (h.isRequired()) {
          errors.add(
              new FieldError(
                  "spec.hyperparameters." + h.name(),
                  "is required by " + version.reference() + " and has no default"));
        }
        continue;
      }
      try {
        merged.put(h.name(), HyperparameterValues.checked(h, value));
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError("spec.hyperparameters." + h.name(), e.getMessage()));
      }
    }
    if (!errors.isEmpty()) {
      throw new ApiException(
          ErrorCode.INVALID_SPEC,
          "the job's hyperparameters do not fit " + version.reference() + "'s schema",
          errors,
          null);
    }
    return merged;
  }

  private static JobSpec merged(
      JobSpec spec, AlgorithmVersion version, Map<String, Object> hyperparameters) {
    var d = version.definition();
    var args = new ArrayList<>(spec.args().isEmpty() ? d.args() : spec.args());
    hyperparameters.forEach((name, value) -> args.add(HyperparameterValues.argument(name, value)));
    var env = new LinkedHashMap<>(d.env());
    env.putAll(spec.env());
    var resources =
        spec.resources() == null
            ? d.resources()
            : d.resources() == null ? spec.resources() : spec.resources().over(d.resources());
    return new JobSpec(
        spec.framework() != null ? spec.framework() : d.framework(),
        spec.image() != null ? spec.image() : d.image(),
        spec.command().isEmpty() ? d.command() : spec.command(),
        args,
        env,
        spec.secretEnv(),
        resources,
        spec.restartPolicy(),
        spec.replicas().isEmpty() ? d.replicas() : spec.replicas(),
        spec.roles(),
        spec.processesPerReplica(),
        spec.elastic(),
        spec.estimatedHours(),
        spec.maxRuntime(),
        spec.maxRestarts(),
        spec.cleanup(),
        spec.checkpoint(),
        spec.inputs(),
        spec.volumes(),
        spec.output(),
        spec.deepspeed(),
        spec.placement(),
        spec.compliance(),
        spec.kubernetes(),
        spec.priority(),
        version.reference(),
        hyperparameters);
  }

  private static ApiException refused(String message) {
    return ApiException.field(ErrorCode.INVALID_SPEC, FIELD, message);
  }
}
