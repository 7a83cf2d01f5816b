package io.trainyard.gateway.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queue's order: priority then arrival inside a team, weighted fair share between teams. */
class FairOrderTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void insideATeamHigherPriorityFirstThenOlderThenById() {
    var order =
        new FairOrder(
                List.of(
                    job("b-late", "nlp", 500, 3),
                    job("low", "nlp", 100, 0),
                    job("high", "nlp", 900, 5),
                    job("a-early", "nlp", 500, 1),
                    job("a-same", "nlp", 500, 1)),
                Map.of(),
                t -> 1)
            .drain();
    assertThat(ids(order)).containsExactly("high", "a-early", "a-same", "b-late", "low");
  }

  @Test
  void aTeamWithManyQueuedJobsDoesNotStarveAnotherWithEqualWeights() {
    var queued = new ArrayList<QueuedJob>();
    for (int i = 0; i < 5; i++) {
      queued.add(job("big-" + i, "big", 500, i));
    }
    queued.add(job("small-0", "small", 500, 10));
    queued.add(job("small-1", "small", 500, 11));
    var order = new FairOrder(queued, Map.of(), t -> 1).drain();
    assertThat(ids(order))
        .containsExactly("big-0", "small-0", "big-1", "small-1", "big-2", "big-3", "big-4");
  }

  @Test
  void weightsGiveSharesInProportion() {
    var queued = new ArrayList<QueuedJob>();
    for (int i = 0; i < 6; i++) {
      queued.add(job("a-" + i, "a", 500, i));
      queued.add(job("b-" + i, "b", 500, i));
    }
    var order = new FairOrder(queued, Map.of(), t -> t.equals("a") ? 2 : 1).drain();
    // a gets two places for each one of b's.
    assertThat(ids(order).subList(0, 6)).containsExactly("a-0", "b-0", "a-1", "b-1", "a-2", "a-3");
  }

  @Test
  void whatATeamAlreadyRunsCountsAgainstItsShare() {
    var order =
        new FairOrder(
                List.of(job("busy-0", "busy", 900, 0), job("idle-0", "idle", 100, 5)),
                Map.of("busy", 3),
                t -> 1)
            .drain();
    // Priority orders jobs inside a team; between teams, share comes first.
    assertThat(ids(order)).containsExactly("idle-0", "busy-0");
  }

  @Test
  void atEqualShareTheHigherPriorityHeadGoesFirst() {
    var order =
        new FairOrder(
                List.of(job("old-low", "x", 100, 0), job("new-high", "y", 800, 9)),
                Map.of(),
                t -> 1)
            .drain();
    assertThat(ids(order)).containsExactly("new-high", "old-low");
  }

  private static List<String> ids(List<QueuedJob> jobs) {
    return jobs.stream().map(QueuedJob::id).toList();
  }

  private static QueuedJob job(String id, String team, int priority, int secondsAfterT0) {
    return new QueuedJob(id, team, id, priority, 0, T0.plusSeconds(secondsAfterT0), null, false);
  }
}
