package io.trainyard.backend.azureml;

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
import io.trainyard.spi.Rejection;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.util.Map;

/**
 * Runs each attempt as an Azure ML command job named {@link BackendJob#objectName()}, tagged with
 * the job id and spec hash so a restarted gateway adopts it instead of starting another. The job's
 * image becomes an environment version first (created once per image). Status is polled (ARM pushes
 * nothing a gateway can subscribe to without Event Grid); logs come from the workspace's Blob
 * storage. Stateless apart from the pipelines, which are thread-safe.
 */
public final class AzureMlBackend implements TrainingBackend {
  static final String ATTR_NODES = "nodes";
  static final String ATTR_PROCESSES = "processesPerNode";
  private static final int LAST_LINE_BYTES = 4096;

  private final AzureMlConfig config;
  private final AzureMlArm arm;
  private final AzureMlBlobLogs logs;
  private final AzureMlPlacements placements;
  private final AzureMlJobMapper mapper;

  AzureMlBackend(
      AzureMlConfig config, BackendContext context, AzureMlArm arm, AzureMlBlobLogs logs) {
    this.config = config;
    this.arm = arm;
    this.logs = logs;
    this.placements = new AzureMlPlacements(config, context.shapes());
    this.mapper = new AzureMlJobMapper(config);
  }

  @Override
  public String kind() {
    return AzureMlBackendFactory.KIND;
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
   * The configured VM sizes, this module's size table and the price catalog: ARM is asked nothing
   * (no quota or cluster-size call) until submit.
   */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  /**
   * Creates the environment version of the job's image, then the job. A PUT to ARM creates or
   * replaces, so the job is looked up first: one of ours with this job id and spec hash is adopted,
   * any other refused.
   */
  @Override
  public ExternalRef submit(BackendJob job) {
    var reasons = placements.reasonsAgainst(job.spec());
    if (!reasons.isEmpty()) {
      throw new BackendException.Rejected(String.join("; ", reasons), null);
    }
    var name = job.objectName();
    var existing = arm.job(name);
    if (existing.isPresent()) {
      return adopt(job, existing.get());
    }
    var placement = placementFor(job);
    var image = job.spec().roleSpecs().get(0).image();
    var environment = AzureMlJobMapper.environment(image);
    arm.ensureEnvironment(environment.name(), environment.version(), environment.body());
    var environmentId = arm.environmentId(environment.name(), environment.version());
    arm.createJob(name, mapper.job(job, placement, environmentId));
    return ref(job);
  }

  /**
   * The router's placement; without one (a direct call), or with one this block cannot honour (spot
   * on a cluster without a low-priority one, after a configuration change), the first this backend
   * proposes now.
   */
  private Placement placementFor(BackendJob job) {
    var chosen = job.placement();
    var spotPossible = config.serverless() || config.lowPriorityCompute() != null;
    if (chosen != null
        && chosen.backendId().equals(id())
        && AzureMlPlacements.SERVICE.equals(chosen.service())
        && chosen.lines().size() == 1
        && (!chosen.spot() || spotPossible)) {
      return chosen;
    }
    var proposals = placements.propose(job.spec());
    if (proposals.placements().isEmpty()) {
      var why = proposals.rejections().stream().map(Rejection::reason).toList();
      throw new BackendException.Rejected(String.join("; ", why), null);
    }
    return proposals.placements().get(0);
  }

  private ExternalRef adopt(BackendJob job, Map<String, Object> existing) {
    var name = job.objectName();
    var tags = AzureJson.object(existing, "properties", "tags");
    var jobId = AzureJson.string(tags, AzureMlJobMapper.TAG_JOB_ID);
    if (!job.jobId().equals(jobId)) {
      throw new BackendException.Rejected(
          "Azure ML job " + name + " already exists and is not job " + job.jobId() + "'s", null);
    }
    var hash = AzureJson.string(tags, AzureMlJobMapper.TAG_SPEC_HASH);
    if (!job.specHash().equals(hash)) {
      throw new BackendException.Rejected(
          "Azure ML job " + name + " was started from a different spec (hash " + hash + ")", null);
    }
    return ref(job);
  }

  /** The job's status; a failed job's reason ends with the last line its first process printed. */
  @Override
  public BackendStatus status(ExternalRef ref) {
    var status = AzureMlStatuses.of(describe(ref.name()));
    if (status.phase() != io.trainyard.spi.BackendPhase.FAILED) {
      return status;
    }
    String last;
    try {
      last = logs.lastLine(ref.name(), LAST_LINE_BYTES).orElse(null);
    } catch (BackendException e) {
      // The logs are a courtesy here: the status stands without them.
      last = null;
    }
    if (last == null) {
      return status;
    }
    return new BackendStatus(
        status.phase(),
        status.reason() + "; last line: " + last,
        status.restarts(),
        status.startedAt(),
        status.endedAt());
  }

  private Map<String, Object> describe(String name) {
    return arm.job(name)
        .orElseThrow(
            () -> new BackendException.NotFound("Azure ML job " + name + " is gone", null));
  }

  /** POST cancel; cancelling a job that is gone or has ended succeeds. */
  @Override
  public void cancel(ExternalRef ref) {
    var answer = arm.cancelJob(ref.name());
    if (answer.ok() || answer.status() == 404) {
      return;
    }
    var error =
        AzureMlErrorTranslator.fromArm("cancel job " + ref.name(), answer.status(), answer.body());
    // Azure ML refuses to cancel a job that has ended (a 400 or 409 saying so).
    if (error instanceof BackendException.Rejected && hasEnded(ref)) {
      return;
    }
    throw error;
  }

  /**
   * The job's output logs. A replica name ({@code worker-0}) reads the process logs of its node.
   *
   * @throws BackendException.NotFound no such replica, or the job is gone
   */
  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    var nodes = AzureMlJobMapper.nodes(ref.attributes().get(ATTR_NODES));
    if (query.replica() != null && !nodes.isEmpty() && !nodes.contains(query.replica())) {
      throw new BackendException.NotFound(
          "no replica " + query.replica() + " in " + ref.name() + "; replicas: " + nodes, null);
    }
    describe(ref.name()); // NotFound for a job that is gone, before any Blob call
    var processes = ref.attributes().getOrDefault(ATTR_PROCESSES, "1");
    return new AzureMlLogStream(
        logs,
        ref.name(),
        nodes,
        Integer.parseInt(processes),
        query.replica(),
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

  /** A probe GET of the workspace's jobs: proves the credentials, the endpoint and the role. */
  @Override
  public BackendHealth health() {
    try {
      arm.probe();
      return BackendHealth.ok();
    } catch (BackendException e) {
      return BackendHealth.unhealthy(e.getMessage());
    }
  }

  @Override
  public void close() {
    // The JDK HTTP client and azure-core's pipeline hold nothing that needs closing.
  }

  private ExternalRef ref(BackendJob job) {
    var topology = AzureMlTopology.of(job.spec());
    return new ExternalRef(
        id(),
        job.objectName(),
        Map.of(
            ATTR_NODES,
            String.join(",", topology.nodes()),
            ATTR_PROCESSES,
            Integer.toString(job.spec().effectiveProcessesPerReplica())));
  }
}
