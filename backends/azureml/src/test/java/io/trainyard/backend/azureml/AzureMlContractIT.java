package io.trainyard.backend.azureml;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.TrainingBackendContract;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend contract on the Azure ML backend: the real azure-identity login and azure-core
 * pipelines against {@link AzureMlFake} (Entra ID's token endpoint, ARM, Blob storage).
 */
class AzureMlContractIT extends TrainingBackendContract {
  private AzureMlFake azure;
  private AzureMlBackend backend;

  @BeforeEach
  void open() throws Exception {
    azure = new AzureMlFake();
    azure.cancelOnTheirOwn();
    backend = TestJobs.backend(azure, "");
  }

  @AfterEach
  void close() {
    backend.close();
    azure.close();
  }

  @Override
  protected TrainingBackend backend() {
    return backend;
  }

  @Override
  protected BackendJob job(String jobId, String specHash) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    return TestJobs.job(jobId, spec, specHash, backend.placements(spec).placements().get(0));
  }

  /** A command job tagged as the mapper tags them, as another gateway would have made it. */
  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    azure.putJob(
        objectName,
        Map.of(
            AzureMlJobMapper.TAG_JOB_ID, owner.jobId(),
            AzureMlJobMapper.TAG_ATTEMPT, Integer.toString(owner.attempt()),
            AzureMlJobMapper.TAG_SPEC_HASH, owner.specHash()));
  }

  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    azure.deleteJob(ref.name());
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return azure.hasJob(job.objectName()) ? 1 : 0;
  }

  @Override
  protected void finish(ExternalRef ref) {
    azure.move(ref.name(), "Completed");
  }
}
