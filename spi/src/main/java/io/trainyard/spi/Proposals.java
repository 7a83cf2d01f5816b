package io.trainyard.spi;

import java.util.List;

/** A backend's answer to "how could you run this job": placements, and why not otherwise. */
public record Proposals(List<Placement> placements, List<Rejection> rejections) {
  public Proposals {
    placements = List.copyOf(placements);
    rejections = List.copyOf(rejections);
  }

  public static Proposals of(Placement placement) {
    return new Proposals(List.of(placement), List.of());
  }

  /** Rejected for good: the spec does not fit this backend (see {@link Rejection.Kind}). */
  public static Proposals rejected(String backendId, String reason) {
    return new Proposals(List.of(), List.of(new Rejection(backendId, reason)));
  }

  /** Rejected for now: down, full or over a quota; the job may wait for this backend. */
  public static Proposals notNow(String backendId, String reason) {
    return new Proposals(List.of(), List.of(Rejection.notNow(backendId, reason)));
  }
}
