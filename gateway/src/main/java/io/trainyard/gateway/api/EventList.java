package io.trainyard.gateway.api;

import io.trainyard.gateway.db.JobEvent;
import java.time.Instant;
import java.util.List;

/** {@code GET /v1/jobs/{id}/events}: what happened to a job, oldest first. */
public record EventList(List<Event> events) {
  /** One event. */
  public record Event(long seq, Instant at, String type, String message) {
    public static Event of(JobEvent e) {
      return new Event(e.seq(), e.at(), e.type(), e.message());
    }
  }
}
