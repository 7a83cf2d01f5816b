package io.trainyard.backend.sagemaker;

import io.trainyard.spi.spec.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which of our replicas runs on which SageMaker host. SageMaker names a job's instances {@code
 * algo-1} … {@code algo-N} and runs the same container on each; we number our replicas in the
 * framework's rank order, so {@code algo-1} is the coordinator ({@code master-0}, {@code chief-0},
 * {@code launcher-0}) and the rest follow role by role: {@code master:1, worker:2} gives {@code
 * algo-1 = master-0}, {@code algo-2 = worker-0}, {@code algo-3 = worker-1}. The container learns
 * the same mapping from {@code TRAINYARD_REPLICAS}. Kept in the external reference as {@code
 * master:1,worker:2} so logs can be read without the spec.
 *
 * @param counts replicas per role, in rank order
 */
record SageMakerHosts(Map<String, Integer> counts) {
  SageMakerHosts {
    counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
  }

  static SageMakerHosts of(JobSpec spec) {
    var counts = new LinkedHashMap<String, Integer>();
    spec.roleSpecs().forEach(r -> counts.put(r.name(), r.replicas()));
    return new SageMakerHosts(counts);
  }

  /** Reads {@link #encode()}'s form; an empty or missing text gives no replicas. */
  static SageMakerHosts parse(String text) {
    var counts = new LinkedHashMap<String, Integer>();
    if (text != null && !text.isBlank()) {
      for (var part : text.split(",")) {
        var colon = part.lastIndexOf(':');
        counts.put(part.substring(0, colon), Integer.parseInt(part.substring(colon + 1)));
      }
    }
    return new SageMakerHosts(counts);
  }

  String encode() {
    var parts = new ArrayList<String>();
    counts.forEach((role, n) -> parts.add(role + ":" + n));
    return String.join(",", parts);
  }

  /** Our replica names in host order: index 0 runs on {@code algo-1}. */
  List<String> replicas() {
    var names = new ArrayList<String>();
    counts.forEach(
        (role, n) -> {
          for (int i = 0; i < n; i++) {
            names.add(role + "-" + i);
          }
        });
    return names;
  }

  /** The host ({@code algo-3}) of a replica ({@code worker-1}). */
  Optional<String> hostOf(String replica) {
    var index = replicas().indexOf(replica);
    return index < 0 ? Optional.empty() : Optional.of("algo-" + (index + 1));
  }

  /**
   * The replica on a host, given the host's log stream name ({@code <job>/algo-3-1718000000}); the
   * stream name itself when the host is not one we know.
   */
  String replicaOfStream(String streamName) {
    var slash = streamName.lastIndexOf('/');
    var host = slash < 0 ? streamName : streamName.substring(slash + 1);
    if (host.startsWith("algo-")) {
      var end = host.indexOf('-', 5);
      try {
        var n = Integer.parseInt(end < 0 ? host.substring(5) : host.substring(5, end));
        var names = replicas();
        return n >= 1 && n <= names.size() ? names.get(n - 1) : "algo-" + n;
      } catch (NumberFormatException e) {
        // not one of SageMaker's host streams; fall through to the raw name
      }
    }
    return host;
  }
}
