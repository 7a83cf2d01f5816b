package io.trainyard.backend.local;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.TrainingBackendContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend contract on the local backend: real processes in a temporary data directory. An
 * attempt's object is its directory under the data directory; out of band means the files
 * themselves, as an operator with a shell would touch them.
 */
class LocalBackendContractIT extends TrainingBackendContract {
  /** Runs until the test drops a {@code finish} file into the attempt's directory. */
  private static final String WAIT_FOR_FINISH =
      "while [ ! -f \"$TRAINYARD_ATTEMPT_DIR/finish\" ]; do sleep 0.1; done";

  @TempDir Path temp;
  private LocalBackendRig rig;

  @BeforeEach
  void open() {
    rig = new LocalBackendRig(temp);
  }

  @AfterEach
  void stopEverything() {
    rig.close();
  }

  @Override
  protected TrainingBackend backend() {
    return rig.backend();
  }

  @Override
  protected BackendJob job(String jobId, String specHash) {
    var shell = LocalBackendRig.shellJob(WAIT_FOR_FINISH, "", "master: 1");
    var placement = rig.backend().placements(shell.spec()).placements().get(0);
    return new BackendJob(
        jobId, 1, "team", "owner", "test", shell.spec(), specHash, placement, java.util.Map.of());
  }

  /** The attempt directory with its marker, as a backend that died right after writing it left. */
  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    var files = new AttemptFiles(rig.dataDir.resolve(objectName));
    files.create();
    files.writeMarker(
        new AttemptMarker(owner.jobId(), owner.attempt(), owner.specHash(), Instant.now()));
  }

  /**
   * The replicas are let finish (killing another uid's sandboxed processes from a test is not
   * something an operator's shell reliably can either), then the attempt's directory is removed.
   */
  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    finish(ref);
    rig.awaitEnd(ref);
    deleteTree(rig.attemptDir(ref));
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return Files.isDirectory(rig.dataDir.resolve(job.objectName())) ? 1 : 0;
  }

  @Override
  protected void finish(ExternalRef ref) {
    try {
      Files.writeString(rig.workDir(ref).resolve("finish"), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
