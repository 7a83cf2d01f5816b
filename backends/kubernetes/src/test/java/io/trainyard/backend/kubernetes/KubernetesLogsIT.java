package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Logs from the job's pods. The CRUD server stores the pods; their log endpoints are answered by
 * expectations with what a kubelet sends when asked for timestamps.
 */
class KubernetesLogsIT extends CrudServerTest {
  private ExternalRef ref;
  private Attempt at;

  @BeforeEach
  void aJobWithPods() {
    ref = submit(job(SPEC));
    at = Attempt.of(ref);
    operator.pods(at, Map.of("Master", 1, "Worker", 2));
    kubelet(
        "master-0",
        "2026-01-05T10:00:00.000000001Z loading data\n"
            + "2026-01-05T10:00:03.000000000Z epoch 1 loss 0.9\n");
    kubelet(
        "worker-0",
        "2026-01-05T10:00:01.000000000Z worker 0 up\n"
            + "2026-01-05T10:00:04.000000000Z worker 0 done\n");
    kubelet("worker-1", "2026-01-05T10:00:02.000000000Z worker 1 up\n");
  }

  private void kubelet(String replica, String body) {
    var pod = at.name() + "-" + replica;
    var path =
        "/api/v1/namespaces/"
            + at.namespace()
            + "/pods/"
            + pod
            + "/log?pretty=false&container=pytorch&timestamps=true";
    cluster.expect().get().withPath(path).andReturn(200, body).always();
    cluster.expect().get().withPath(path + "&follow=true").andReturn(200, body).always();
    cluster
        .expect()
        .get()
        .withPath(path.replace("timestamps=true", "sinceTime=2026-01-05T10:00:02Z&timestamps=true"))
        .andReturn(200, body)
        .always();
  }

  @Test
  void everyReplicaIsReadAndMergedByTime() throws Exception {
    var lines = all(backend.logs(ref, LogQuery.ALL));
    assertThat(lines)
        .extracting(l -> l.replica() + ": " + l.text())
        .containsExactly(
            "master-0: loading data",
            "worker-0: worker 0 up",
            "worker-1: worker 1 up",
            "master-0: epoch 1 loss 0.9",
            "worker-0: worker 0 done");
    assertThat(lines.get(0).at()).isEqualTo(Instant.parse("2026-01-05T10:00:00.000000001Z"));
  }

  @Test
  void oneReplicaByNameAndSince() throws Exception {
    assertThat(all(backend.logs(ref, new LogQuery("worker-0", null, false))))
        .extracting(LogLine::text)
        .containsExactly("worker 0 up", "worker 0 done");
    var since = Instant.parse("2026-01-05T10:00:02Z");
    assertThat(all(backend.logs(ref, new LogQuery("master-0", since, false))))
        .extracting(LogLine::text)
        .containsExactly("epoch 1 loss 0.9");
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("worker-7", null, false)))
        .isInstanceOf(BackendException.NotFound.class)
        .hasMessageContaining("master-0, worker-0, worker-1");
  }

  @Test
  void followingStreamsUntilEveryPodsLogEnds() throws Exception {
    try (var stream = backend.logs(ref, new LogQuery(null, null, true))) {
      var lines = all(stream);
      assertThat(lines).hasSize(5);
      assertThat(lines.stream().filter(l -> l.replica().equals("worker-0")))
          .extracting(LogLine::text)
          .containsExactly("worker 0 up", "worker 0 done");
    }
  }

  @Test
  void anAttemptWithoutPodsHasNoLinesAndAnUnknownOneIsNotFound() throws Exception {
    var other = submit(job(SPEC));
    assertThat(all(backend.logs(other, LogQuery.ALL))).isEmpty();
    var unknown = new ExternalRef(ref.backendId(), "ty-unknown-a1", ref.attributes());
    assertThatThrownBy(() -> backend.logs(unknown, LogQuery.ALL))
        .isInstanceOf(BackendException.NotFound.class);
  }

  private static List<LogLine> all(LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    stream.close();
    return lines;
  }
}
