package io.trainyard.testkit;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The smallest backend that keeps the SPI's promises, its "platform" a map of objects by name: the
 * kit's own check that its tests can all pass. CPU-only jobs without Kubernetes-only fields.
 */
final class InMemoryBackend implements TrainingBackend {
  static final String ID = "memory";

  /** An object on the platform: who made it, and where it stands. */
  record Obj(String jobId, String specHash, BackendPhase phase) {}

  final Map<String, Obj> platform = new ConcurrentHashMap<>();

  @Override
  public String kind() {
    return "memory";
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Proposals placements(JobSpec spec) {
    var reasons = new ArrayList<String>();
    if (spec.roleSpecs().stream().anyMatch(r -> r.resources().gpuCount() > 0)) {
      reasons.add("the memory backend has no GPUs");
    }
    if (spec.needsKubernetes()) {
      reasons.add("the memory backend is not Kubernetes");
    }
    if (!reasons.isEmpty()) {
      return new Proposals(List.of(), reasons.stream().map(r -> new Rejection(ID, r)).toList());
    }
    var line = new PlacementLine(List.of("master"), "memory", 1, null, 0);
    return Proposals.of(
        new Placement(
            ID, "onprem", "memory", "here", false, List.of(line), null, null, null, null));
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    var name = job.objectName();
    var mine = new Obj(job.jobId(), job.specHash(), BackendPhase.RUNNING);
    var existing = platform.putIfAbsent(name, mine);
    if (existing != null
        && !(existing.jobId().equals(job.jobId()) && existing.specHash().equals(job.specHash()))) {
      throw new BackendException.Rejected(name + " belongs to job " + existing.jobId(), null);
    }
    return new ExternalRef(ID, name, Map.of("kind", "memory"));
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    var obj = find(ref);
    return new BackendStatus(obj.phase(), null, 0, null, null);
  }

  @Override
  public void cancel(ExternalRef ref) {
    platform.computeIfPresent(
        ref.name(),
        (name, obj) ->
            obj.phase().isTerminal()
                ? obj
                : new Obj(obj.jobId(), obj.specHash(), BackendPhase.STOPPED));
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    find(ref);
    return LogStream.of(List.of());
  }

  @Override
  public BackendHealth health() {
    return BackendHealth.ok();
  }

  @Override
  public void close() {}

  private Obj find(ExternalRef ref) {
    if (!"memory".equals(ref.attributes().get("kind"))) {
      throw new BackendException.NotFound(ref.name() + " is not a memory object", null);
    }
    var obj = platform.get(ref.name());
    if (obj == null) {
      throw new BackendException.NotFound("no object " + ref.name(), null);
    }
    return obj;
  }
}
