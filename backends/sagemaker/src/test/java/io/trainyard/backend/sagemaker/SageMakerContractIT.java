package io.trainyard.backend.sagemaker;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.TrainingBackendContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend contract on the SageMaker backend, its real client against {@link SageMakerStub}:
 * moto cannot run, stop or delete a training job (its jobs are Completed at once), the stub can.
 */
class SageMakerContractIT extends TrainingBackendContract {
  @TempDir Path dataDir;
  private SageMakerStub stub;
  private SageMakerBackend backend;

  @BeforeEach
  void open() throws Exception {
    stub = new SageMakerStub();
    stub.stopJobsOnTheirOwn();
    backend =
        (SageMakerBackend)
            new SageMakerBackendFactory()
                .create(
                    TestJobs.localConfig(stub.endpoint(), ""),
                    new BackendContext(PriceCatalog.embedded(), dataDir, Clock.systemUTC()));
  }

  @AfterEach
  void close() {
    backend.close();
    stub.close();
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

  /** A training job tagged as the mapper tags them, put there as another gateway would have. */
  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    stub.putJob(
        objectName,
        Map.of(
            SageMakerJobMapper.TAG_JOB_ID, owner.jobId(),
            SageMakerJobMapper.TAG_ATTEMPT, Integer.toString(owner.attempt()),
            SageMakerJobMapper.TAG_SPEC_HASH, owner.specHash()));
  }

  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    stub.delete(ref.name());
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return (int) stub.names().stream().filter(job.objectName()::equals).count();
  }

  @Override
  protected void finish(ExternalRef ref) {
    stub.move(ref.name(), "InProgress", "Training", null);
    stub.move(ref.name(), "Completed", "Completed", null);
  }
}
