package io.trainyard.backend.azureml;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds the ARM bodies of an attempt: the environment version its image needs and the command job
 * itself. Pure functions of the attempt, the chosen placement and the block, so they get
 * table-driven tests without a server. Field names are those of the {@code CommandJob} and {@code
 * EnvironmentVersion} schemas of API version {@value AzureMlArm#API_VERSION}.
 */
final class AzureMlJobMapper {
  static final String TAG_JOB_ID = "trainyard:job-id";
  static final String TAG_ATTEMPT = "trainyard:attempt";
  static final String TAG_SPEC_HASH = "trainyard:spec-hash";
  static final String TAG_TEAM = "trainyard:team";
  static final String TAG_OWNER = "trainyard:owner";
  static final String TAG_NAME = "trainyard:name";
  static final String OUTPUT = "output";
  static final String CHECKPOINT = "checkpoint";

  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private final AzureMlConfig config;

  AzureMlJobMapper(AzureMlConfig config) {
    this.config = config;
  }

  /** The environment an image runs in: named after the image, so creating it is idempotent. */
  record Environment(String name, String version, Map<String, Object> body) {}

  static Environment environment(String image) {
    var name = "trainyard-" + sha256(image).substring(0, 24);
    var properties = new LinkedHashMap<String, Object>();
    properties.put("image", image);
    properties.put("osType", "Linux");
    properties.put("description", "Container image " + image + ", registered by Trainyard");
    properties.put("tags", Map.of("trainyard:image", image));
    return new Environment(name, "1", Map.of("properties", properties));
  }

  /** The body of the job PUT ({@code properties.jobType = Command}). */
  Map<String, Object> job(BackendJob job, Placement placement, String environmentId) {
    var spec = job.spec();
    var role = spec.roleSpecs().get(0); // every role runs the same command (checked before)
    var topology = AzureMlTopology.of(spec);
    var line = placement.lines().get(0);
    var runtime = spec.maxRuntimeDuration().orElse(config.defaultMaxRuntimeDuration());

    var p = new LinkedHashMap<String, Object>();
    p.put("jobType", "Command");
    p.put("displayName", job.name() == null ? job.objectName() : job.name());
    p.put("experimentName", config.experimentName());
    p.put("description", "Trainyard job " + job.jobId() + ", attempt " + job.attempt());
    p.put("tags", tags(job));
    p.put("command", command(spec, role));
    p.put("environmentId", environmentId);
    p.put("environmentVariables", environment(job, role, topology));
    var resources = new LinkedHashMap<String, Object>();
    resources.put("instanceCount", topology.instanceCount());
    if (config.serverless()) {
      resources.put("instanceType", line.instanceType());
      // Serverless compute: the job tier is how a job asks for spot capacity.
      p.put("queueSettings", Map.of("jobTier", placement.spot() ? "Spot" : "Standard"));
    } else {
      p.put(
          "computeId",
          config.computeId(placement.spot() ? config.lowPriorityCompute() : config.compute()));
    }
    p.put("resources", resources);
    if (topology.distribution() != null) {
      p.put("distribution", topology.distribution());
    }
    p.put("limits", Map.of("jobLimitsType", "Command", "timeout", runtime.toString()));
    var inputs = inputs(spec);
    if (!inputs.isEmpty()) {
      p.put("inputs", inputs);
    }
    var outputs = outputs(spec);
    if (!outputs.isEmpty()) {
      p.put("outputs", outputs);
    }
    if (config.jobIdentity() != null) {
      p.put("identity", Map.of("identityType", config.jobIdentity()));
    }
    return Map.of("properties", p);
  }

  /**
   * The command line: Trainyard's data variables bound to Azure ML's mount paths ({@code
   * ${{inputs.x}}}, which Azure ML expands in the command only), then the role's command and args,
   * each shell-quoted.
   */
  static String command(JobSpec spec, RoleSpec role) {
    var parts = new ArrayList<String>();
    for (var input : spec.inputs()) {
      parts.add(
          "TRAINYARD_INPUT_"
              + input.name().toUpperCase(Locale.ROOT)
              + "=${{inputs."
              + input.name()
              + "}}");
    }
    if (spec.output() != null && spec.output().uri() != null) {
      parts.add("TRAINYARD_OUTPUT_DIR=${{outputs." + OUTPUT + "}}");
    }
    if (spec.checkpoint() != null) {
      parts.add("TRAINYARD_CHECKPOINT_DIR=${{outputs." + CHECKPOINT + "}}");
    }
    role.command().forEach(c -> parts.add(quote(c)));
    role.args().forEach(a -> parts.add(quote(a)));
    return String.join(" ", parts);
  }

  static String quote(String word) {
    if (!word.isEmpty() && SHELL_SAFE.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\"'\"'") + "'";
  }

  /** The role's env, Trainyard's own variables, and each secret's Key Vault URI (not its value). */
  private Map<String, Object> environment(BackendJob job, RoleSpec role, AzureMlTopology topology) {
    var env = new LinkedHashMap<String, Object>(role.env());
    env.put("TRAINYARD_JOB_ID", job.jobId());
    env.put("TRAINYARD_ATTEMPT", Integer.toString(job.attempt()));
    env.put("TRAINYARD_REPLICAS", String.join(",", topology.nodes()));
    env.put(
        "TRAINYARD_PROCESSES_PER_REPLICA",
        Integer.toString(job.spec().effectiveProcessesPerReplica()));
    role.secretEnv()
        .forEach(
            (name, ref) ->
                env.put(
                    name + "_KEYVAULT_SECRET_URI",
                    config
                        .secretUri(ref)
                        .orElseThrow(() -> new IllegalStateException("unmapped secret " + name))));
    return env;
  }

  private static Map<String, Object> inputs(JobSpec spec) {
    var inputs = new LinkedHashMap<String, Object>();
    for (var input : spec.inputs()) {
      inputs.put(input.name(), data("jobInputType", input.uri(), "ReadOnlyMount"));
    }
    return inputs;
  }

  private static Map<String, Object> outputs(JobSpec spec) {
    var outputs = new LinkedHashMap<String, Object>();
    if (spec.output() != null && spec.output().uri() != null) {
      outputs.put(OUTPUT, data("jobOutputType", folder(spec.output().uri()), "ReadWriteMount"));
    }
    if (spec.checkpoint() != null) {
      outputs.put(
          CHECKPOINT, data("jobOutputType", folder(spec.checkpoint().uri()), "ReadWriteMount"));
    }
    return outputs;
  }

  // Outputs are folders: a model or checkpoint directory, whatever the URI's spelling.
  private static String folder(String uri) {
    return uri.endsWith("/") ? uri : uri + "/";
  }

  private static Map<String, Object> data(String typeField, String uri, String mode) {
    var data = new LinkedHashMap<String, Object>();
    data.put(typeField, uri.endsWith("/") ? "uri_folder" : "uri_file");
    data.put("uri", uri);
    data.put("mode", mode);
    return data;
  }

  static Map<String, Object> tags(BackendJob job) {
    var tags = new LinkedHashMap<String, Object>();
    tags.put(TAG_JOB_ID, job.jobId());
    tags.put(TAG_ATTEMPT, Integer.toString(job.attempt()));
    tags.put(TAG_SPEC_HASH, job.specHash());
    if (job.team() != null) {
      tags.put(TAG_TEAM, job.team());
    }
    if (job.owner() != null) {
      tags.put(TAG_OWNER, job.owner());
    }
    if (job.name() != null) {
      tags.put(TAG_NAME, job.name());
    }
    // The job object's labels (a Kubeflow document's metadata.labels) become the job's tags: an
    // Azure ML job's tags are a free string dictionary, and a label key cannot hold the ':' of
    // ours, so the two never clash.
    job.spec().jobLabels().forEach(tags::putIfAbsent);
    return tags;
  }

  /**
   * What the quote says of the job object's annotations, which an Azure ML job has no place for.
   */
  static List<String> leftOut(JobSpec spec) {
    return spec.jobAnnotations().isEmpty()
        ? List.of()
        : List.of(
            "spec.kubernetes.jobAnnotations ("
                + String.join(", ", spec.jobAnnotations().keySet())
                + ") are not used: an Azure ML job has no annotations");
  }

  static List<String> nodes(String encoded) {
    return encoded == null || encoded.isBlank() ? List.of() : List.of(encoded.split(","));
  }

  private static String sha256(String text) {
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
