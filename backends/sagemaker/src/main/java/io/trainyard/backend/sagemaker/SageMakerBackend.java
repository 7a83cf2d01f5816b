package io.trainyard.backend.sagemaker;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Placement;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.Tag;

/**
 * Runs each attempt as a SageMaker training job named {@link BackendJob#objectName()}, tagged with
 * the job id and spec hash so a restarted gateway adopts it instead of starting another. Status is
 * polled (SageMaker pushes nothing a gateway can subscribe to without EventBridge); logs come from
 * CloudWatch Logs. Stateless apart from the SDK clients, which are thread-safe.
 */
public final class SageMakerBackend implements TrainingBackend {
  static final String ATTR_ARN = "arn";
  static final String ATTR_REPLICAS = "replicas";

  private final SageMakerConfig config;
  private final SageMakerClient sageMaker;
  private final CloudWatchLogsClient logs;
  private final SageMakerPlacements placements;
  private final SageMakerJobMapper mapper;

  SageMakerBackend(
      SageMakerConfig config,
      BackendContext context,
      SageMakerClient sageMaker,
      CloudWatchLogsClient logs) {
    this.config = config;
    this.sageMaker = sageMaker;
    this.logs = logs;
    this.placements = new SageMakerPlacements(config, context.shapes());
    this.mapper = new SageMakerJobMapper(config);
  }

  @Override
  public String kind() {
    return SageMakerBackendFactory.KIND;
  }

  @Override
  public String id() {
    return config.id();
  }

  @Override
  public Proposals placements(JobSpec spec) {
    return placements.propose(spec);
  }

  /**
   * The configured instance types and the price catalog's shapes: SageMaker's API is asked nothing
   * until submit (it tells no capacity or queue ahead of a new training job anyway).
   */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  /**
   * Creates the training job; when the name is taken (a gateway died after creating it), adopts the
   * existing job if its tags carry this job id and spec hash, and refuses it otherwise.
   */
  @Override
  public ExternalRef submit(BackendJob job) {
    var reasons = placements.reasonsAgainst(job.spec());
    if (!reasons.isEmpty()) {
      throw new BackendException.Rejected(String.join("; ", reasons), null);
    }
    var request = mapper.request(job, placementFor(job));
    var hosts = SageMakerHosts.of(job.spec());
    try {
      var arn = sageMaker.createTrainingJob(request).trainingJobArn();
      return ref(job.objectName(), arn, hosts);
    } catch (SdkException e) {
      if (SageMakerErrorTranslator.isResourceInUse(e)) {
        return adopt(job, hosts);
      }
      throw SageMakerErrorTranslator.translate(e, "create training job " + job.objectName());
    }
  }

  /** The router's placement; without one (a direct call), the first this backend proposes. */
  private Placement placementFor(BackendJob job) {
    var chosen = job.placement();
    if (chosen != null
        && chosen.backendId().equals(id())
        && SageMakerPlacements.SERVICE.equals(chosen.service())
        && chosen.lines().size() == 1) {
      return chosen;
    }
    var proposals = placements.propose(job.spec());
    if (proposals.placements().isEmpty()) {
      var why = proposals.rejections().stream().map(r -> r.reason()).toList();
      throw new BackendException.Rejected(String.join("; ", why), null);
    }
    return proposals.placements().get(0);
  }

  private ExternalRef adopt(BackendJob job, SageMakerHosts hosts) {
    var name = job.objectName();
    var existing = describe(name);
    var tags = tags(existing.trainingJobArn());
    var jobId = tags.get(SageMakerJobMapper.TAG_JOB_ID);
    if (!job.jobId().equals(jobId)) {
      throw new BackendException.Rejected(
          "training job " + name + " already exists and is not job " + job.jobId() + "'s", null);
    }
    var hash = tags.get(SageMakerJobMapper.TAG_SPEC_HASH);
    if (!job.specHash().equals(hash)) {
      throw new BackendException.Rejected(
          "training job " + name + " was started from a different spec (hash " + hash + ")", null);
    }
    return ref(name, existing.trainingJobArn(), hosts);
  }

  private Map<String, String> tags(String arn) {
    try {
      return sageMaker.listTagsPaginator(r -> r.resourceArn(arn)).tags().stream()
          .collect(Collectors.toMap(Tag::key, Tag::value, (a, b) -> b));
    } catch (SdkException e) {
      throw SageMakerErrorTranslator.translate(e, "list tags of " + arn);
    }
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return SageMakerStatuses.of(describe(ref.name()));
  }

  private DescribeTrainingJobResponse describe(String name) {
    try {
      return sageMaker.describeTrainingJob(r -> r.trainingJobName(name));
    } catch (SdkException e) {
      throw SageMakerErrorTranslator.translate(e, "describe training job " + name);
    }
  }

  /** StopTrainingJob; stopping a job that is gone or already ended succeeds. */
  @Override
  public void cancel(ExternalRef ref) {
    try {
      sageMaker.stopTrainingJob(r -> r.trainingJobName(ref.name()));
    } catch (SdkException e) {
      var error = SageMakerErrorTranslator.translate(e, "stop training job " + ref.name());
      if (error instanceof BackendException.NotFound) {
        return;
      }
      // SageMaker refuses to stop a job that has ended with a ValidationException.
      if (error instanceof BackendException.Rejected && hasEnded(ref)) {
        return;
      }
      throw error;
    }
  }

  /**
   * Lines from CloudWatch Logs. A replica name ({@code worker-0}) is read from its host's stream
   * ({@code algo-2}); see {@link SageMakerHosts}.
   *
   * @throws BackendException.NotFound no such replica, or the job is gone
   */
  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    var hosts = SageMakerHosts.parse(ref.attributes().get(ATTR_REPLICAS));
    String host = null;
    if (query.replica() != null) {
      host =
          hosts
              .hostOf(query.replica())
              .orElseThrow(
                  () ->
                      new BackendException.NotFound(
                          "no replica "
                              + query.replica()
                              + " in "
                              + ref.name()
                              + "; replicas: "
                              + hosts.replicas(),
                          null));
    }
    describe(ref.name()); // NotFound for a job that is gone, before any log call
    return new SageMakerLogStream(
        logs,
        ref.name(),
        host,
        hosts,
        query.since(),
        query.follow(),
        () -> hasEnded(ref),
        config.logPollDuration());
  }

  private boolean hasEnded(ExternalRef ref) {
    try {
      return status(ref).phase().isTerminal();
    } catch (BackendException.NotFound e) {
      return true;
    }
  }

  /** ListTrainingJobs with one result: cheap, and proves the credentials and the endpoint. */
  @Override
  public BackendHealth health() {
    try {
      sageMaker.listTrainingJobs(r -> r.maxResults(1));
      return BackendHealth.ok();
    } catch (SdkException e) {
      return BackendHealth.unhealthy(
          SageMakerErrorTranslator.translate(e, "list training jobs").getMessage());
    }
  }

  @Override
  public void close() {
    try (sageMaker;
        logs) {
      // closes both, the second even when the first fails
    }
  }

  private ExternalRef ref(String name, String arn, SageMakerHosts hosts) {
    return new ExternalRef(
        id(), name, Map.of(ATTR_ARN, arn == null ? "" : arn, ATTR_REPLICAS, hosts.encode()));
  }
}
