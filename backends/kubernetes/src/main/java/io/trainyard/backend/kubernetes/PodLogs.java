package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.TailPrettyLoggable;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Logs of an attempt, read from its pods (label {@code training.kubeflow.org/job-name=<name>} for a
 * v1 job, {@code jobset.sigs.k8s.io/jobset-name=<name>} for a TrainJob; see {@link ReplicaPod}),
 * the framework's or trainer's container of each, with the kubelet's timestamps so lines of several
 * replicas can be put in order.
 *
 * <p>A query naming a replica ({@code worker-1}) reads that pod; a query naming none reads every
 * replica, as the SPI says: without {@code follow}, all lines merged by time (ties in rank order,
 * master first); with {@code follow}, lines as they arrive from each pod. {@code since} is passed
 * to the kubelet ({@code sinceTime}) and applied again to the lines, the kubelet's being by the
 * second.
 */
final class PodLogs {
  private final KubeflowJobApi api;
  private final AttemptFollower follower;

  PodLogs(KubeflowJobApi api, AttemptFollower follower) {
    this.api = api;
    this.follower = follower;
  }

  LogStream logs(ExternalRef ref, LogQuery query) {
    var at = Attempt.of(ref);
    var replicas = replicas(at);
    if (replicas.isEmpty()) {
      // No pods (yet, or cleaned up): an empty answer if the attempt is known, else not found.
      if (!follower.known(ref)) {
        throw new BackendException.NotFound(at + " is not on the cluster", null);
      }
      return LogStream.of(List.of());
    }
    if (query.replica() != null) {
      replicas = replicas.stream().filter(r -> r.replica().equals(query.replica())).toList();
      if (replicas.isEmpty()) {
        throw new BackendException.NotFound(
            at + " has no replica " + query.replica() + "; it has " + names(replicas(at)), null);
      }
    }
    return query.follow() ? follow(at, replicas, query) : read(at, replicas, query);
  }

  private LogStream read(Attempt at, List<ReplicaPod> replicas, LogQuery query) {
    var lines = new ArrayList<LogLine>();
    for (var replica : replicas) {
      String text;
      try {
        text = loggable(at, replica, query).getLog();
      } catch (KubernetesClientException e) {
        if (KubernetesErrors.isNotFound(e)) {
          continue; // the pod went between the list and the read
        }
        throw KubernetesErrors.translate(e, "read logs of " + at + " " + replica.replica());
      }
      text.lines()
          .map(l -> line(replica.replica(), l))
          .filter(l -> after(l, query))
          .forEach(lines::add);
    }
    // Stable: lines of one replica keep their order, and equal times keep rank order.
    lines.sort(Comparator.comparing(LogLine::at, Comparator.nullsFirst(Comparator.naturalOrder())));
    return LogStream.of(lines);
  }

  private LogStream follow(Attempt at, List<ReplicaPod> replicas, LogQuery query) {
    var followed = new FollowedLogs();
    for (var replica : replicas) {
      try {
        var watch = loggable(at, replica, query).watchLog();
        followed.add(
            replica.replica(), watch, l -> line(replica.replica(), l), l -> after(l, query));
      } catch (KubernetesClientException e) {
        followed.close();
        throw KubernetesErrors.translate(e, "follow logs of " + at + " " + replica.replica());
      }
    }
    return followed.addedAll();
  }

  private TailPrettyLoggable loggable(Attempt at, ReplicaPod replica, LogQuery query) {
    var pod =
        api.client()
            .pods()
            .inNamespace(at.namespace())
            .withName(replica.podName())
            .inContainer(replica.container())
            .usingTimestamps();
    return query.since() == null ? pod : pod.sinceTime(query.since().toString());
  }

  private List<ReplicaPod> replicas(Attempt at) {
    try {
      return api
          .client()
          .pods()
          .inNamespace(at.namespace())
          .withLabel(ReplicaPod.jobNameLabel(at.kind()), at.name())
          .list()
          .getItems()
          .stream()
          .map(p -> ReplicaPod.of(at.kind(), p))
          .flatMap(Optional::stream)
          .sorted(ReplicaPod.RANK_ORDER)
          .toList();
    } catch (KubernetesClientException e) {
      throw KubernetesErrors.translate(e, "list pods of " + at);
    }
  }

  /** A kubelet line with {@code timestamps=true}: {@code 2024-05-01T10:00:00.123456789Z text}. */
  static LogLine line(String replica, String raw) {
    var space = raw.indexOf(' ');
    if (space > 0) {
      try {
        return new LogLine(
            replica, Instant.parse(raw.substring(0, space)), raw.substring(space + 1));
      } catch (DateTimeParseException e) {
        // Not a timestamp after all: keep the line whole.
      }
    }
    return new LogLine(replica, null, raw);
  }

  private static boolean after(LogLine line, LogQuery query) {
    return query.since() == null || line.at() == null || !line.at().isBefore(query.since());
  }

  private static String names(List<ReplicaPod> replicas) {
    return replicas.isEmpty()
        ? "none"
        : String.join(", ", replicas.stream().map(ReplicaPod::replica).toList());
  }
}
