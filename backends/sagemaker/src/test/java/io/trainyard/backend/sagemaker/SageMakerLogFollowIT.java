package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.testkit.MotoServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Following a running job's logs: SageMaker from the stub (so the job can run, then end),
 * CloudWatch Logs from moto. Each client is the backend's own, built from its config block.
 */
@ExtendWith(MotoServer.class)
class SageMakerLogFollowIT {

  @Test
  void aFollowedStreamShowsLinesAsTheyComeAndEndsWithTheJob() throws Exception {
    try (var stub = new SageMakerStub()) {
      var poll = "logPollInterval: 100ms\n";
      var sageMakerSide = TestJobs.localConfig(stub.endpoint(), poll);
      var logsSide = TestJobs.localConfig(MotoServer.endpoint(), poll);
      var context =
          new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
      try (var logs = SageMakerBackendFactory.logsClient(logsSide);
          var backend =
              new SageMakerBackend(
                  sageMakerSide,
                  context,
                  SageMakerBackendFactory.sageMakerClient(sageMakerSide),
                  SageMakerBackendFactory.logsClient(logsSide))) {
        var spec = TestJobs.spec(TestJobs.FULL_SPEC);
        var ref = backend.submit(TestJobs.job(spec, backend.placements(spec).placements().get(0)));
        stub.move(ref.name(), "InProgress", "Training", null);
        var t0 = Instant.now().toEpochMilli();
        TrainingLogs.write(logs, ref.name() + "/algo-1-1", t0, "epoch 1");

        var stream = backend.logs(ref, new LogQuery("master-0", null, true));
        var lines =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return TrainingLogs.read(stream);
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
        Thread.sleep(400);
        TrainingLogs.write(logs, ref.name() + "/algo-1-2", t0 + 1, "epoch 2");
        Thread.sleep(400);
        assertThat(lines).isNotDone();
        stub.move(ref.name(), "Completed", "Completed", null);

        List<LogLine> read = lines.get(10, TimeUnit.SECONDS);
        assertThat(read).extracting(LogLine::text).containsExactly("epoch 1", "epoch 2");
        assertThat(read).extracting(LogLine::replica).containsOnly("master-0");
      }
    }
  }
}
