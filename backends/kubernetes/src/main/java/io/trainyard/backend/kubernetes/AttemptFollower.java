package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.backend.kubernetes.KubeflowJobApi.ConflictException;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.Subscription;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows attempts: their status from the informers' caches (a GET only for what a cache does not
 * hold yet), the admission timeout, cancel, and pushed changes. Thread-safe.
 *
 * <p>Admission timeout: an attempt still waiting to run ({@code ADMITTING} or {@code SUSPENDED})
 * longer than the cluster's {@code admissionTimeout}, counted from its object's creation (or from
 * its latest suspension), is recorded as refused, deleted, and reported {@code REFUSED} with the
 * reason, so the gateway fails the job over. The clock is read when status is asked for: the
 * gateway's resync is what notices a deadline passing.
 */
final class AttemptFollower implements JobInformers.Listener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AttemptFollower.class);
  private static final int CANCEL_TRIES = 3;

  private final String backendId;
  private final Duration admissionTimeout;
  private final KubeflowJobApi api;
  private final EndedAttempts ended;
  private final Clock clock;
  private final JobInformers informers;
  private final RestartTally restarts = new RestartTally();
  private final List<BackendEventListener> listeners = new CopyOnWriteArrayList<>();

  AttemptFollower(ClusterSettings cluster, KubeflowJobApi api, EndedAttempts ended, Clock clock) {
    this.backendId = cluster.backendId();
    this.admissionTimeout = cluster.admissionTimeout();
    this.api = api;
    this.ended = ended;
    this.clock = clock;
    this.informers = new JobInformers(api, this);
  }

  JobInformers informers() {
    return informers;
  }

  BackendStatus status(ExternalRef ref) {
    var at = Attempt.of(ref);
    var known = ended.find(at.namespace(), at.name());
    if (known.isPresent() && known.get().phase() == BackendPhase.REFUSED) {
      // A gateway that died between our delete and its failover asks again: same answer, and
      // the delete is repeated in case that is where it died.
      if (current(at) != null) {
        api.delete(at.kind(), at.namespace(), at.name(), null);
      }
      return known.get();
    }
    var job = current(at);
    if (job == null) {
      return known.orElseThrow(
          () -> new BackendException.NotFound(at + " is not on " + backendId, null));
    }
    var status = counted(at, job, at.kind().status().of(job));
    if (waiting(status) && overdue(at.kind(), job)) {
      return refuse(at, status);
    }
    return status;
  }

  private BackendStatus counted(Attempt at, GenericKubernetesResource job, BackendStatus status) {
    var count = restarts.observe(at, job, status.restarts());
    return count == status.restarts()
        ? status
        : new BackendStatus(
            status.phase(), status.reason(), count, status.startedAt(), status.endedAt());
  }

  /** The attempt's phase as the informer's cache holds it, without asking the server. */
  java.util.Optional<BackendPhase> cachedPhase(ExternalRef ref) {
    var at = Attempt.of(ref);
    var job = informers.cached(at.kind(), at.namespace(), at.name());
    return job == null
        ? java.util.Optional.empty()
        : java.util.Optional.of(at.kind().status().of(job).phase());
  }

  /** Whether the attempt's object is there, or this backend knows how it ended. No side effects. */
  boolean known(ExternalRef ref) {
    var at = Attempt.of(ref);
    return current(at) != null || ended.find(at.namespace(), at.name()).isPresent();
  }

  /**
   * Deletes the attempt's object unless it has finished: a job that ended before the cancel reached
   * it keeps its end (the backend wins the race). The delete is conditional on the version read, so
   * an end written in between is not deleted either.
   */
  void cancel(ExternalRef ref) {
    var at = Attempt.of(ref);
    for (int i = 0; i < CANCEL_TRIES; i++) {
      var job = api.get(at.kind(), at.namespace(), at.name());
      if (job == null || finished(at.kind(), job)) {
        return;
      }
      try {
        api.delete(at.kind(), at.namespace(), at.name(), job.getMetadata().getResourceVersion());
        return;
      } catch (ConflictException e) {
        LOG.debug("{} changed while being cancelled; reading it again", at);
      }
    }
    api.delete(at.kind(), at.namespace(), at.name(), null);
  }

  Subscription subscribe(BackendEventListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Whether the kind's informer has listed and is watching (tests wait for it). */
  boolean watching(JobKind kind) {
    var informer = informers.informer(kind);
    return informer.hasSynced() && informer.isWatching();
  }

  /** Starts following a kind now, rather than when its first status is asked for. */
  void watch(JobKind kind) {
    informers.informer(kind);
  }

  @Override
  public void changed(JobKind kind, GenericKubernetesResource job) {
    var at = Attempt.of(kind, job);
    restarts.observe(at, job, kind.status().of(job).restarts());
    notify(at);
  }

  @Override
  public void removed(JobKind kind, GenericKubernetesResource lastKnown) {
    var at = Attempt.of(kind, lastKnown);
    var last = counted(at, lastKnown, kind.status().of(lastKnown));
    if (last.phase() == BackendPhase.SUCCEEDED || last.phase() == BackendPhase.FAILED) {
      ended.finished(at.namespace(), at.name(), last);
    }
  }

  @Override
  public void deleted(JobKind kind, GenericKubernetesResource lastKnown) {
    var at = Attempt.of(kind, lastKnown);
    restarts.forget(at);
    notify(at);
  }

  private void notify(Attempt at) {
    var ref = at.ref(backendId);
    for (var listener : listeners) {
      try {
        listener.changed(ref);
      } catch (RuntimeException e) {
        // One broken listener must not starve the others or kill the informer's thread.
        LOG.warn("a status listener failed on {}: {}", at, e.toString());
      }
    }
  }

  private GenericKubernetesResource current(Attempt at) {
    var cached = informers.cached(at.kind(), at.namespace(), at.name());
    // A miss may be an object created after the cache's last event: ask before saying "gone".
    return cached != null ? cached : api.get(at.kind(), at.namespace(), at.name());
  }

  private static boolean waiting(BackendStatus status) {
    return status.phase() == BackendPhase.ADMITTING || status.phase() == BackendPhase.SUSPENDED;
  }

  private static boolean finished(JobKind kind, GenericKubernetesResource job) {
    var phase = kind.status().of(job).phase();
    return phase == BackendPhase.SUCCEEDED || phase == BackendPhase.FAILED;
  }

  private boolean overdue(JobKind kind, GenericKubernetesResource job) {
    var since = kind.status().waitingSince(job);
    return since != null
        && Duration.between(since, clock.instant()).compareTo(admissionTimeout) > 0;
  }

  private BackendStatus refuse(Attempt at, BackendStatus waiting) {
    var why = waiting.reason() != null ? waiting.reason() : "its pods are not running";
    var reason = "not admitted within " + Wording.duration(admissionTimeout) + ": " + why;
    ended.refused(at.namespace(), at.name(), reason);
    api.delete(at.kind(), at.namespace(), at.name(), null);
    LOG.info("{} refused: {}", at, reason);
    return new BackendStatus(
        BackendPhase.REFUSED, reason, waiting.restarts(), null, clock.instant());
  }

  @Override
  public void close() {
    informers.close();
  }
}
