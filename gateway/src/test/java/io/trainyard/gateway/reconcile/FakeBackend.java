package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A remote backend as the reconciler sees it, kept in memory: objects by name, with the job id they
 * were made for. Submit is idempotent per object name like a real backend's; tests script refusals
 * and phases. A stand-in for a cloud, not for any of our code.
 */
final class FakeBackend implements TrainingBackend {
  /** How the next submits are answered. */
  enum Answer {
    ACCEPT,
    NO_CAPACITY,
    REJECT,
    /** Transient trouble, e.g. throttling or a 5xx. */
    BUSY,
    /** Makes the object, then the answer is lost: a timeout after the backend acted. */
    LOST
  }

  record Config(String id, String region, boolean hipaaEligible, BigDecimal discountPct)
      implements BackendConfig {}

  private record FakeObject(String jobId, String specHash) {}

  private final String id;
  private final BigDecimal usdPerHour;
  private final Map<String, FakeObject> objects = new ConcurrentHashMap<>();
  private final Map<String, BackendPhase> phases = new ConcurrentHashMap<>();

  /** Objects that got to run; one stopped while admitting never started and costs nothing. */
  private final java.util.Set<String> ran = ConcurrentHashMap.newKeySet();

  final Map<String, AtomicInteger> submitCalls = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> statusCalls = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> created = new ConcurrentHashMap<>();
  final List<String> cancelled = new java.util.concurrent.CopyOnWriteArrayList<>();
  final Map<String, Map<String, String>> settings = new ConcurrentHashMap<>();
  volatile Answer answer = Answer.ACCEPT;
  volatile BackendHealth healthAnswer = BackendHealth.ok();

  /** Instances free, as a backend that knows its capacity proposes them; null = unknown. */
  volatile Integer freeCapacity;

  /** When set, submits wait until it is counted down: a backend whose calls hang. */
  volatile java.util.concurrent.CountDownLatch submitGate;

  FakeBackend(String id, String usdPerHour) {
    this.id = id;
    this.usdPerHour = new BigDecimal(usdPerHour);
  }

  BackendRegistry.Entry entry() {
    return new BackendRegistry.Entry(this, new Config(id, "r1", false, BigDecimal.ZERO));
  }

  /** An object left behind, as by a gateway that died after submitting. */
  void preexisting(String name, String jobId, String specHash) {
    objects.put(name, new FakeObject(jobId, specHash));
    created.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    phases.put(name, BackendPhase.ADMITTING);
  }

  void phase(String name, BackendPhase phase) {
    phases.put(name, phase);
    if (phase != BackendPhase.ADMITTING && phase != BackendPhase.STOPPED) {
      ran.add(name);
    }
    // As a watch would: whoever subscribed hears that this object changed.
    var ref = new ExternalRef(id, name, Map.of());
    listeners.forEach(l -> l.changed(ref));
  }

  /** Pushes a change event for {@code objectName} without changing anything (a repeated event). */
  void push(String objectName) {
    var ref = new ExternalRef(id, objectName, Map.of());
    listeners.forEach(l -> l.changed(ref));
  }

  private final List<io.trainyard.spi.BackendEventListener> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public io.trainyard.spi.Subscription events(io.trainyard.spi.BackendEventListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** The phase of object {@code name}; null when there is none. */
  BackendPhase phaseOf(String name) {
    return objects.containsKey(name) ? phases.get(name) : null;
  }

  void lose(String name) {
    objects.remove(name);
  }

  @Override
  public String kind() {
    return "fake";
  }

  @Override
  public String id() {
    return id;
  }

  /** When set, placements wait until it is counted down: a backend whose quotes hang. */
  volatile java.util.concurrent.CountDownLatch placementsGate;

  /** Whether it says its placements need no network (asked in the quoting thread). */
  volatile boolean fromMemory;

  /** When set, placements throw it: a backend whose quote fails. */
  volatile RuntimeException placementsFailure;

  /** The name of each thread placements were asked on, in order. */
  final List<String> placementThreads = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public boolean placementsFromMemory() {
    return fromMemory;
  }

  @Override
  public Proposals placements(JobSpec spec) {
    placementThreads.add(Thread.currentThread().getName());
    var failure = placementsFailure;
    if (failure != null) {
      throw failure;
    }
    var gate = placementsGate;
    if (gate != null) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Proposals.of(
        new Placement(
            id,
            "test",
            "fake",
            "r1",
            false,
            List.of(new PlacementLine(List.of("master"), "node", 1, null, 0)),
            usdPerHour,
            null,
            freeCapacity,
            List.of()));
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    var name = job.objectName();
    settings.put(name, job.settings());
    submitCalls.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    var gate = submitGate;
    if (gate != null) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new BackendException.Retryable("interrupted while hanging", e);
      }
    }
    switch (answer) {
      case NO_CAPACITY -> throw new BackendException.CapacityUnavailable("no nodes free", null);
      case REJECT -> throw new BackendException.Rejected("image not allowed here", null);
      case BUSY -> throw new BackendException.Retryable("503 Service Unavailable", null);
      default -> {}
    }
    var existing = objects.putIfAbsent(name, new FakeObject(job.jobId(), job.specHash()));
    if (existing == null) {
      created.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      phases.put(name, BackendPhase.ADMITTING);
    } else if (!existing.jobId().equals(job.jobId())) {
      throw new BackendException.Rejected(name + " belongs to another job", null);
    }
    if (answer == Answer.LOST) {
      throw new BackendException.Retryable("read timed out", null);
    }
    return new ExternalRef(id, name, Map.of("zone", "z1"));
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    statusCalls.computeIfAbsent(ref.name(), n -> new AtomicInteger()).incrementAndGet();
    if (!objects.containsKey(ref.name())) {
      throw new BackendException.NotFound(ref.name(), null);
    }
    var phase = phases.get(ref.name());
    var started = ran.contains(ref.name()) ? Instant.parse("2030-01-01T00:00:00Z") : null;
    var ended = phase.isTerminal() ? Instant.parse("2030-01-01T01:00:00Z") : null;
    return new BackendStatus(
        phase, phase == BackendPhase.FAILED ? "OOMKilled" : null, 0, started, ended);
  }

  /** When set, cancels throw it (a backend that cannot cancel, for now or for good). */
  volatile RuntimeException cancelFailure;

  @Override
  public void cancel(ExternalRef ref) {
    var failure = cancelFailure;
    if (failure != null) {
      throw failure;
    }
    cancelled.add(ref.name());
    if (objects.containsKey(ref.name())) {
      phases.put(ref.name(), BackendPhase.STOPPED);
    }
  }

  /** What the object's replicas printed, every replica's lines in order. */
  final Map<String, List<LogLine>> printed = new ConcurrentHashMap<>();

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    var lines = printed.get(ref.name());
    if (lines == null) {
      throw new BackendException.NotFound("no logs", null);
    }
    return LogStream.of(lines);
  }

  @Override
  public BackendHealth health() {
    return healthAnswer;
  }

  @Override
  public void close() {}
}
