package io.trainyard.backend.vertex;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.ListCustomJobsRequest;
import com.google.cloud.logging.v2.LoggingClient;
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
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;

/**
 * Runs each attempt as a Vertex AI custom job, displayed as {@link BackendJob#objectName()} and
 * labelled with the job id, attempt and spec hash. Vertex has no unique job names and no request
 * ids for CreateCustomJob, so submit lists the attempt's jobs by label first and adopts one instead
 * of creating a second; a lock per name keeps two submits in this gateway from racing, and the
 * reconciler's lease keeps two gateways apart. Status is polled; logs are read from Cloud Logging
 * (see {@link VertexLogStream}), followed streams by one {@link VertexLogPoller} per backend. The
 * clients are thread-safe.
 */
public final class VertexBackend implements TrainingBackend {
  static final String ATTR_RESOURCE = "resource";
  static final String ATTR_POOLS = "pools";

  private final VertexConfig config;
  private final Clock clock;
  private final JobServiceClient client;
  private final LoggingClient logging;
  private final VertexLogPoller logPoller;
  private final VertexPlacements placements;
  private final VertexJobMapper mapper;
  private final Object[] submitLocks = new Object[32];

  VertexBackend(
      VertexConfig config, BackendContext context, JobServiceClient client, LoggingClient logging) {
    this.config = config;
    this.clock = context.clock();
    this.client = client;
    this.logging = logging;
    this.logPoller =
        new VertexLogPoller(
            logging, config.project(), clock, config.logPollDuration(), config.id());
    this.placements = new VertexPlacements(config, context.shapes());
    this.mapper = new VertexJobMapper(config, placements);
    for (int i = 0; i < submitLocks.length; i++) {
      submitLocks[i] = new Object();
    }
  }

  @Override
  public String kind() {
    return VertexBackendFactory.KIND;
  }

  @Override
  public String id() {
    return config.id();
  }

  @Override
  public Proposals placements(JobSpec spec) {
    return placements.propose(spec);
  }

  /** The configured machine types and the price catalog's shapes: Vertex is asked nothing. */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    var reasons = placements.reasonsAgainst(job.spec());
    if (!reasons.isEmpty()) {
      throw new BackendException.Rejected(String.join("; ", reasons), null);
    }
    var customJob = mapper.customJob(job, placementFor(job));
    var pools = VertexWorkerPools.of(job.spec()).encode();
    var name = job.objectName();
    synchronized (submitLocks[Math.floorMod(name.hashCode(), submitLocks.length)]) {
      try {
        var existing = existing(job);
        if (existing != null) {
          return ref(name, existing.getName(), pools);
        }
        var created = client.createCustomJob(config.parent(), customJob);
        return ref(name, created.getName(), pools);
      } catch (ApiException e) {
        throw VertexErrorTranslator.translate(e, "create custom job " + name);
      }
    }
  }

  /** The router's placement; without one (a direct call), the first this backend proposes. */
  private Placement placementFor(BackendJob job) {
    var chosen = job.placement();
    if (chosen != null
        && chosen.backendId().equals(id())
        && VertexPlacements.SERVICE.equals(chosen.service())) {
      return chosen;
    }
    var proposals = placements.propose(job.spec());
    if (proposals.placements().isEmpty()) {
      var why = proposals.rejections().stream().map(Rejection::reason).toList();
      throw new BackendException.Rejected(String.join("; ", why), null);
    }
    return proposals.placements().get(0);
  }

  /**
   * The attempt's custom job if one was created before, checked against the spec hash. Looked up by
   * display name, the attempt's object name: a custom job of that name made for another job is
   * refused rather than joined by a second one, which a lookup by display name could later mistake
   * for ours.
   */
  private CustomJob existing(BackendJob job) {
    var request =
        ListCustomJobsRequest.newBuilder()
            .setParent(config.parent())
            .setFilter("display_name=\"" + job.objectName() + "\"")
            .build();
    var hash = VertexLabels.value(job.specHash());
    var others = new ArrayList<String>();
    for (var candidate : client.listCustomJobs(request).iterateAll()) {
      if (!candidate.getDisplayName().equals(job.objectName())) {
        continue; // the server's filter should have left it out; never adopt on its word alone
      }
      var labels = candidate.getLabelsMap();
      if (!VertexLabels.value(job.jobId()).equals(labels.get(VertexLabels.JOB_ID))
          || !Integer.toString(job.attempt()).equals(labels.get(VertexLabels.ATTEMPT))) {
        throw new BackendException.Rejected(
            "custom job "
                + candidate.getName()
                + " is named "
                + job.objectName()
                + " but is not job "
                + job.jobId()
                + "'s (job-id "
                + labels.get(VertexLabels.JOB_ID)
                + "); not adopted",
            null);
      }
      if (hash.equals(labels.get(VertexLabels.SPEC_HASH))) {
        return candidate;
      }
      others.add(candidate.getName() + " (hash " + labels.get(VertexLabels.SPEC_HASH) + ")");
    }
    if (!others.isEmpty()) {
      throw new BackendException.Rejected(
          job.objectName() + " was started from a different spec: " + String.join(", ", others),
          null);
    }
    return null;
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return VertexStatuses.of(get(ref));
  }

  private CustomJob get(ExternalRef ref) {
    var resource = resourceOf(ref);
    try {
      return client.getCustomJob(resource);
    } catch (ApiException e) {
      throw VertexErrorTranslator.translate(e, "get custom job " + ref.name());
    }
  }

  /** CancelCustomJob; cancelling a job that is gone or already ended succeeds. */
  @Override
  public void cancel(ExternalRef ref) {
    try {
      client.cancelCustomJob(resourceOf(ref));
    } catch (BackendException.NotFound e) {
      return;
    } catch (ApiException e) {
      var error = VertexErrorTranslator.translate(e, "cancel custom job " + ref.name());
      if (error instanceof BackendException.NotFound) {
        return;
      }
      // Vertex refuses to cancel an ended job with FAILED_PRECONDITION.
      if (error instanceof BackendException.Rejected && hasEnded(ref)) {
        return;
      }
      throw error;
    }
  }

  private boolean hasEnded(ExternalRef ref) {
    try {
      return status(ref).phase().isTerminal();
    } catch (BackendException.NotFound e) {
      return true;
    }
  }

  /**
   * The job's entries from Cloud Logging ({@code resource.type="ml_job"}, its id, the replica's
   * task), oldest first, named by our replica names where the reference knows the worker pools. A
   * replica may be asked for by our name ({@code worker-1}) or Vertex's ({@code workerpool1-0}).
   * With {@code follow} the stream goes on until the job has ended; see {@link VertexLogPoller}.
   *
   * @throws BackendException.NotFound no such replica, or no such job
   */
  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    var pools = ref.attributes().get(ATTR_POOLS);
    String task = null;
    if (query.replica() != null) {
      task =
          VertexWorkerPools.taskIn(pools, query.replica())
              .or(() -> knownTask(pools, query.replica()))
              .orElseThrow(
                  () ->
                      new BackendException.NotFound(
                          "no replica " + query.replica() + " in " + ref.name(), null));
    }
    var resource = resourceOf(ref);
    var jobId = resource.substring(resource.lastIndexOf('/') + 1);
    return new VertexLogStream(
        logging,
        logPoller,
        config.project(),
        jobId,
        task,
        query.since(),
        query.follow(),
        () -> endedAt(resource),
        t -> VertexWorkerPools.replicaOf(pools, t).orElse(t),
        clock);
  }

  /** A Vertex task name asked for directly, if the pools (when known) have it. */
  private static Optional<String> knownTask(String pools, String name) {
    if (!VertexWorkerPools.isTask(name)) {
      return Optional.empty();
    }
    if (pools == null || pools.isBlank() || VertexWorkerPools.replicaOf(pools, name).isPresent()) {
      return Optional.of(name);
    }
    return Optional.empty();
  }

  /**
   * When the job ended; null while it runs. A job that is gone ended long ago. Asked by resource
   * name, so a followed stream never looks its job up by display name again.
   */
  private Instant endedAt(String resource) {
    try {
      var status = VertexStatuses.of(client.getCustomJob(resource));
      if (!status.phase().isTerminal()) {
        return null;
      }
      return status.endedAt() != null ? status.endedAt() : clock.instant();
    } catch (ApiException e) {
      var error = VertexErrorTranslator.translate(e, "get custom job " + resource);
      if (error instanceof BackendException.NotFound) {
        return Instant.EPOCH;
      }
      throw error;
    }
  }

  /** ListCustomJobs, one page of one job: cheap, and proves the credentials and the endpoint. */
  @Override
  public BackendHealth health() {
    try {
      client
          .listCustomJobsCallable()
          .call(
              ListCustomJobsRequest.newBuilder().setParent(config.parent()).setPageSize(1).build());
      return BackendHealth.ok();
    } catch (ApiException e) {
      return BackendHealth.unhealthy(
          VertexErrorTranslator.translate(e, "list custom jobs").getMessage());
    }
  }

  @Override
  public void close() {
    logPoller.close();
    logging.close();
    client.close();
  }

  /**
   * The job's resource name, kept in the reference at submit; for a reference without it, found by
   * display name.
   */
  private String resourceOf(ExternalRef ref) {
    var resource = ref.attributes().get(ATTR_RESOURCE);
    if (resource != null && !resource.isBlank()) {
      return resource;
    }
    var request =
        ListCustomJobsRequest.newBuilder()
            .setParent(config.parent())
            .setFilter("display_name=\"" + ref.name() + "\"")
            .build();
    try {
      for (var job : client.listCustomJobs(request).iterateAll()) {
        if (job.getDisplayName().equals(ref.name())) {
          return job.getName();
        }
      }
    } catch (ApiException e) {
      throw VertexErrorTranslator.translate(e, "find custom job " + ref.name());
    }
    throw new BackendException.NotFound("no custom job named " + ref.name(), null);
  }

  private ExternalRef ref(String name, String resource, String pools) {
    return new ExternalRef(id(), name, Map.of(ATTR_RESOURCE, resource, ATTR_POOLS, pools));
  }
}
