package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VertexLogPollerTest {

  @Test
  void followersFitOneCallUntilTheFilterWouldPassTheApisLimit() {
    var cursor = new VertexLogCursor(Instant.parse("2026-12-01T10:15:30.123456789Z"), "0123456789");
    var clauses = new ArrayList<String>();
    for (int i = 0; i < 150; i++) {
      clauses.add(
          VertexLogFilter.clause(
              Long.toString(8_000_000_000_000_000_000L + i),
              "workerpool1-" + i,
              cursor,
              Instant.parse("2026-12-01T10:20:00Z")));
    }

    var few = VertexLogPoller.batches(clauses.subList(0, 3));
    var many = VertexLogPoller.batches(clauses);

    assertThat(few).containsExactly(clauses.subList(0, 3));
    assertThat(many).hasSizeGreaterThan(1);
    assertThat(many)
        .allSatisfy(
            batch -> assertThat(VertexLogFilter.of(batch).length()).isLessThanOrEqualTo(20_000));
    assertThat(many.stream().flatMap(List::stream).toList()).isEqualTo(clauses);
  }
}
