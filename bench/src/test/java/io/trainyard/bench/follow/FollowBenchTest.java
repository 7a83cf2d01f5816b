package io.trainyard.bench.follow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The follow scenario, tiny: only that it runs in both modes and counts what it should. Its figures
 * mean nothing at this size and are never compared with anything.
 */
class FollowBenchTest {
  @Test
  void bothModesRunAndCountTheirChanges() throws Exception {
    FollowBenchMain.quietLogs();
    var results = FollowBenchMain.run(new int[] {20}, 3, 5, List.of("full-pass", "targeted"));

    assertThat(results)
        .extracting(FollowBenchMain.Result::mode)
        .containsExactly("full-pass", "targeted");
    for (var r : results) {
      assertThat(r.jobs()).isEqualTo(20);
      assertThat(r.changes()).isPositive();
      assertThat(r.seen()).isBetween(0, r.changes());
      // The backend lists and watches its job kind: the server saw it.
      assertThat(r.requests()).containsKeys("list", "watch");
      assertThat(r.heapMiB()).isPositive();
    }
  }
}
