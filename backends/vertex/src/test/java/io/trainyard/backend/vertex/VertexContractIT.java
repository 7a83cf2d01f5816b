package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobState;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.TrainingBackendContract;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend contract on the Vertex backend, its real JobServiceClient over plaintext gRPC against
 * {@link FakeJobService}. A custom job's name is the server's id; the attempt's object name is its
 * display name.
 */
class VertexContractIT extends TrainingBackendContract {
  private static final String PARENT = "projects/ml-prod/locations/us-central1";

  @TempDir Path dataDir;
  private FakeJobService vertex;
  private VertexBackend backend;

  @BeforeEach
  void open() throws Exception {
    vertex = new FakeJobService();
    vertex.cancelJobsOnTheirOwn();
    backend =
        (VertexBackend)
            new VertexBackendFactory()
                .create(
                    TestJobs.localConfig(vertex.endpoint(), ""),
                    new BackendContext(PriceCatalog.embedded(), dataDir, Clock.systemUTC()));
  }

  @AfterEach
  void close() {
    backend.close();
    vertex.close();
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

  /** A custom job with the display name and labels the mapper gives {@code owner}'s. */
  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    vertex.put(
        PARENT,
        CustomJob.newBuilder()
            .setDisplayName(objectName)
            .putAllLabels(VertexLabels.of(owner))
            .build());
  }

  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    vertex.delete(resource(ref));
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return (int)
        vertex.jobs().stream().filter(j -> j.getDisplayName().equals(job.objectName())).count();
  }

  @Override
  protected void finish(ExternalRef ref) {
    vertex.move(resource(ref), JobState.JOB_STATE_RUNNING, null);
    vertex.move(resource(ref), JobState.JOB_STATE_SUCCEEDED, null);
  }

  private String resource(ExternalRef ref) {
    return vertex.jobs().stream()
        .filter(j -> j.getDisplayName().equals(ref.name()))
        .findFirst()
        .orElseThrow()
        .getName();
  }
}
