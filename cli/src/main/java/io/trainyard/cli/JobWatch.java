package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/** Polls a job until it ends: first at once, then backing off to every two seconds. */
final class JobWatch {
  private static final Set<String> ENDED = Set.of("SUCCEEDED", "FAILED", "CANCELLED");
  private static final Duration FIRST_PAUSE = Duration.ofMillis(250);
  private static final Duration MAX_PAUSE = Duration.ofSeconds(2);

  /**
   * The last answer seen.
   *
   * @param raw its JSON text, for {@code --output json}
   * @param ended false when the timeout ran out first
   */
  record Outcome(JsonNode job, String raw, boolean ended) {
    String state() {
      return QuoteView.text(job, "state");
    }
  }

  private final GatewayClient client;

  JobWatch(GatewayClient client) {
    this.client = client;
  }

  static boolean isEnded(String state) {
    return state != null && ENDED.contains(state);
  }

  /**
   * @param onChange called with the job the first time and whenever its state changes
   */
  Outcome untilEnded(String id, Duration timeout, Consumer<JsonNode> onChange) {
    return untilEnded(id, timeout, onChange, (job, raw) -> {}, MAX_PAUSE);
  }

  /** What a live view does with every answer, changed or not. */
  interface Poll {
    void polled(JsonNode job, String raw);
  }

  /**
   * @param onChange called with the job the first time and whenever its state changes
   * @param onPoll called after that with every answer, e.g. to redraw an elapsed time
   * @param maxPause the longest wait between two polls
   */
  Outcome untilEnded(
      String id, Duration timeout, Consumer<JsonNode> onChange, Poll onPoll, Duration maxPause) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_PAUSE;
    String lastState = null;
    while (true) {
      String raw = client.get("/v1/jobs/" + id);
      JsonNode job = client.parse(raw);
      String state = QuoteView.text(job, "state");
      if (!Objects.equals(state, lastState)) {
        onChange.accept(job);
        lastState = state;
      }
      onPoll.polled(job, raw);
      long left = deadline - System.nanoTime();
      if (isEnded(state) || left <= 0) {
        return new Outcome(job, raw, isEnded(state));
      }
      try {
        Thread.sleep(Math.min(pause.toMillis(), Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw CliException.failed("interrupted while waiting for job " + id);
      }
      pause = pause.multipliedBy(2).compareTo(maxPause) > 0 ? maxPause : pause.multipliedBy(2);
    }
  }
}
