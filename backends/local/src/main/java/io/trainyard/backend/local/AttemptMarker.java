package io.trainyard.backend.local;

import java.time.Instant;
import java.util.Objects;

/**
 * Whose attempt a directory holds: written before any process starts, and what submit compares to
 * decide between adopting the directory and refusing it (the local form of the job-id label and
 * spec-hash label of Kubernetes objects).
 */
record AttemptMarker(String jobId, int attempt, String specHash, Instant createdAt) {
  AttemptMarker {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(specHash, "specHash");
  }
}
