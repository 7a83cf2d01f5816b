package io.trainyard.testkit;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import java.util.Map;

/** The contract on {@link InMemoryBackend}: every point can pass, with hooks this small. */
class InMemoryBackendContractTest extends TrainingBackendContract {
  private final InMemoryBackend backend = new InMemoryBackend();

  @Override
  protected TrainingBackend backend() {
    return backend;
  }

  @Override
  protected BackendJob job(String jobId, String specHash) {
    var spec =
        TestSpecs.spec(
            """
            framework: pytorch
            image: registry.example.com/train:1.0
            command: [python, train.py]
            replicas: {master: 1}
            """);
    var placement = backend.placements(spec).placements().get(0);
    return new BackendJob(jobId, 1, "nlp", "alice", "bert", spec, specHash, placement, Map.of());
  }

  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    backend.platform.put(
        objectName, new InMemoryBackend.Obj(owner.jobId(), owner.specHash(), BackendPhase.RUNNING));
  }

  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    backend.platform.remove(ref.name());
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return backend.platform.containsKey(job.objectName()) ? 1 : 0;
  }

  @Override
  protected void finish(ExternalRef ref) {
    backend.platform.computeIfPresent(
        ref.name(),
        (name, obj) ->
            new InMemoryBackend.Obj(obj.jobId(), obj.specHash(), BackendPhase.SUCCEEDED));
  }
}
