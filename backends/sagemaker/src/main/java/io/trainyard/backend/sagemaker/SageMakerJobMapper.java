package io.trainyard.backend.sagemaker;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sagemaker.model.AlgorithmSpecification;
import software.amazon.awssdk.services.sagemaker.model.Channel;
import software.amazon.awssdk.services.sagemaker.model.CheckpointConfig;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.DataSource;
import software.amazon.awssdk.services.sagemaker.model.OutputDataConfig;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.RetryStrategy;
import software.amazon.awssdk.services.sagemaker.model.S3DataDistribution;
import software.amazon.awssdk.services.sagemaker.model.S3DataSource;
import software.amazon.awssdk.services.sagemaker.model.S3DataType;
import software.amazon.awssdk.services.sagemaker.model.StoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.Tag;
import software.amazon.awssdk.services.sagemaker.model.VpcConfig;

/**
 * Builds the CreateTrainingJob request of an attempt: a pure function of the attempt, the chosen
 * placement and the backend's configuration, so it gets table-driven tests without a server.
 */
final class SageMakerJobMapper {
  static final String TAG_JOB_ID = "trainyard:job-id";
  static final String TAG_ATTEMPT = "trainyard:attempt";
  static final String TAG_SPEC_HASH = "trainyard:spec-hash";
  static final String TAG_TEAM = "trainyard:team";
  static final String TAG_OWNER = "trainyard:owner";
  static final String TAG_NAME = "trainyard:name";
  static final String CHECKPOINT_DIR = "/opt/ml/checkpoints";

  // SageMaker's tag value alphabet; anything else (rare in team or user names) becomes '_'.
  private static final Pattern TAG_UNSAFE = Pattern.compile("[^\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]");
  // SageMaker allows 30 retries at most.
  private static final int MAX_RETRIES = 30;

  private final SageMakerConfig config;

  SageMakerJobMapper(SageMakerConfig config) {
    this.config = config;
  }

  CreateTrainingJobRequest request(BackendJob job, Placement placement) {
    var spec = job.spec();
    var role = spec.roleSpecs().get(0); // every role runs the same container (checked before)
    var line = placement.lines().get(0);
    var runtime = spec.maxRuntimeDuration().orElse(config.defaultMaxRuntimeDuration());
    var request =
        CreateTrainingJobRequest.builder()
            .trainingJobName(job.objectName())
            .roleArn(config.roleArn())
            .algorithmSpecification(algorithm(role))
            .environment(environment(job, role))
            .resourceConfig(
                ResourceConfig.builder()
                    .instanceType(line.instanceType())
                    .instanceCount(spec.totalReplicas())
                    .volumeSizeInGB(config.volumeSizeGb())
                    .build())
            .stoppingCondition(stopping(runtime, placement.spot()))
            .enableManagedSpotTraining(placement.spot())
            .inputDataConfig(channels(spec))
            .outputDataConfig(OutputDataConfig.builder().s3OutputPath(outputPath(spec)).build())
            .enableNetworkIsolation(config.networkIsolation())
            .enableInterContainerTrafficEncryption(config.interContainerEncryption())
            .tags(tags(job));
    if (spec.checkpoint() != null) {
      request.checkpointConfig(
          CheckpointConfig.builder()
              .s3Uri(spec.checkpoint().uri())
              .localPath(CHECKPOINT_DIR)
              .build());
    }
    if (config.vpc() != null) {
      request.vpcConfig(
          VpcConfig.builder()
              .subnets(config.vpc().subnets())
              .securityGroupIds(config.vpc().securityGroups())
              .build());
    }
    if (spec.effectiveMaxRestarts() > 0) {
      // SageMaker retries the whole job, and only after an internal error: the nearest it has.
      request.retryStrategy(
          RetryStrategy.builder()
              .maximumRetryAttempts(Math.min(MAX_RETRIES, spec.effectiveMaxRestarts()))
              .build());
    }
    return request.build();
  }

  private AlgorithmSpecification algorithm(RoleSpec role) {
    var algorithm =
        AlgorithmSpecification.builder()
            .trainingImage(role.image())
            .trainingInputMode(config.inputMode());
    // Empty lists would replace the image's ENTRYPOINT with nothing; leave the image's own.
    if (!role.command().isEmpty()) {
      algorithm.containerEntrypoint(role.command());
    }
    if (!role.args().isEmpty()) {
      algorithm.containerArguments(role.args());
    }
    // No metrics token here (anyone who may describe the job sees its environment): SageMaker
    // parses the job's trainyard-metric lines itself, one definition per metric name.
    algorithm.metricDefinitions(metricDefinitions(config.metricNames()));
    return algorithm.build();
  }

  /**
   * One SageMaker metric definition per name: a regex on the job's log lines {@code
   * trainyard-metric name=<name> value=<number> ...} whose group is the value.
   */
  static List<software.amazon.awssdk.services.sagemaker.model.MetricDefinition> metricDefinitions(
      List<String> names) {
    return names.stream()
        .map(
            name ->
                software.amazon.awssdk.services.sagemaker.model.MetricDefinition.builder()
                    .name(name)
                    .regex(
                        "trainyard-metric name="
                            + name.replace(".", "\\.")
                            + " value=([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)")
                    .build())
        .toList();
  }

  /** The role's env, Trainyard's own variables, and each secret's ARN (never its value). */
  private Map<String, String> environment(BackendJob job, RoleSpec role) {
    var env = new LinkedHashMap<>(role.env());
    env.put("TRAINYARD_JOB_ID", job.jobId());
    env.put("TRAINYARD_ATTEMPT", Integer.toString(job.attempt()));
    env.put("TRAINYARD_REPLICAS", String.join(",", SageMakerHosts.of(job.spec()).replicas()));
    env.put(
        "TRAINYARD_PROCESSES_PER_REPLICA",
        Integer.toString(job.spec().effectiveProcessesPerReplica()));
    if (job.spec().checkpoint() != null) {
      env.put("TRAINYARD_CHECKPOINT_DIR", CHECKPOINT_DIR);
    }
    role.secretEnv()
        .forEach(
            (name, ref) ->
                env.put(
                    name + "_SECRET_ARN",
                    config
                        .secretArn(ref)
                        .orElseThrow(() -> new IllegalStateException("unmapped secret " + name))));
    return env;
  }

  private StoppingCondition stopping(Duration runtime, boolean spot) {
    var stopping = StoppingCondition.builder().maxRuntimeInSeconds(seconds(runtime));
    if (spot) {
      // MaxWait counts the run too, so it must be at least MaxRuntime.
      stopping.maxWaitTimeInSeconds(seconds(runtime.plus(config.maxWaitForSpotDuration())));
    }
    return stopping.build();
  }

  private List<Channel> channels(JobSpec spec) {
    var channels = new ArrayList<Channel>();
    for (var input : spec.inputs()) {
      channels.add(
          Channel.builder()
              .channelName(input.name())
              .inputMode(config.inputMode())
              .dataSource(
                  DataSource.builder()
                      .s3DataSource(
                          S3DataSource.builder()
                              .s3Uri(input.uri())
                              .s3DataType(S3DataType.S3_PREFIX)
                              .s3DataDistributionType(S3DataDistribution.FULLY_REPLICATED)
                              .build())
                      .build())
              .build());
    }
    return channels;
  }

  private String outputPath(JobSpec spec) {
    return spec.output() != null && spec.output().uri() != null
        ? spec.output().uri()
        : config.outputPath();
  }

  static List<Tag> tags(BackendJob job) {
    var tags = new ArrayList<Tag>();
    tags.add(tag(TAG_JOB_ID, job.jobId()));
    tags.add(tag(TAG_ATTEMPT, Integer.toString(job.attempt())));
    tags.add(tag(TAG_SPEC_HASH, job.specHash()));
    if (job.team() != null) {
      tags.add(tag(TAG_TEAM, job.team()));
    }
    if (job.owner() != null) {
      tags.add(tag(TAG_OWNER, job.owner()));
    }
    if (job.name() != null) {
      tags.add(tag(TAG_NAME, job.name()));
    }
    SageMakerUserTags.of(job.spec(), tags.size())
        .tags()
        .forEach((key, value) -> tags.add(Tag.builder().key(key).value(value).build()));
    return tags;
  }

  private static Tag tag(String key, String value) {
    var safe = TAG_UNSAFE.matcher(value).replaceAll("_");
    return Tag.builder()
        .key(key)
        .value(safe.length() > 256 ? safe.substring(0, 256) : safe)
        .build();
  }

  private static int seconds(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toSeconds()));
  }
}
