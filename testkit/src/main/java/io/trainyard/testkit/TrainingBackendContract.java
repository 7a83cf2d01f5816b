package io.trainyard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * What every {@link TrainingBackend} promises the gateway, as tests. A backend's test module
 * subclasses this once, on the real backend wired to the fixture its other tests already use (a
 * CRUD API server, moto, an in-process fake of the cloud service, the local machine), and supplies
 * the hooks below. See {@link ContractPoint} for the points and {@code testkit/README.md} for an
 * example.
 *
 * <p>Every SPI call the kit makes goes through one check: an exception that is not a {@link
 * BackendException} fails the test (no SDK type and no {@code IllegalArgumentException} may reach
 * the gateway). Each test cancels what it submitted before it returns, so the subclass's own
 * teardown (closing the backend, stopping the server) runs on a quiet backend.
 *
 * <p>JUnit makes a new instance per test method; hooks are called on the test's thread.
 */
public abstract class TrainingBackendContract {
  /**
   * How long the kit waits for a backend that learns of changes asynchronously (an informer, a
   * poller) to show one. A bound on a wait, not a timing assertion: a backend that shows the change
   * at once passes at once.
   */
  protected static final Duration SETTLE = Duration.ofSeconds(60);

  private static final Duration POLL = Duration.ofMillis(50);

  private final List<ExternalRef> submitted = new ArrayList<>();

  // ---------------------------------------------------------------------------------------------
  // Hooks a backend's test provides.

  /**
   * The backend under test, open and healthy. Called many times per test: return the same instance.
   * The kit never closes it; the subclass's teardown does.
   */
  protected abstract TrainingBackend backend();

  /**
   * A job this backend accepts and starts, with the given job id and spec hash (the kit makes them
   * unique per call): a small spec the backend can run, a placement taken from {@code
   * backend().placements(spec)}, and the team settings the backend needs (a namespace). Once
   * submitted it must stay live (not end by itself) until {@link #finish}, {@link #deleteOutOfBand}
   * or a cancel ends it, so the kit can act on a live attempt.
   */
  protected abstract BackendJob job(String jobId, String specHash);

  /**
   * Makes an object named {@code objectName} exist on the backend's platform without going through
   * the backend under test, exactly as the backend would have made it for {@code owner} (its job id
   * and spec hash labels, tags or marker). The kit calls it with {@code owner} the attempt itself
   * (a gateway that died after its submit reached the platform: the object must be adopted) and
   * with {@code owner} another job, or the same job with another spec hash (the object must be
   * refused).
   */
  protected abstract void createOutOfBand(BackendJob owner, String objectName);

  /**
   * Removes the attempt's object from the platform without going through the backend under test, as
   * a person with {@code kubectl} or the cloud console would, and returns once it is gone. The
   * attempt is live when this is called; a platform that cannot delete a running object may end it
   * first.
   */
  protected abstract void deleteOutOfBand(ExternalRef ref);

  /**
   * How many objects the platform holds under {@code job}'s object name, read from the platform
   * itself (the API server, the fake service), not through the backend under test.
   */
  protected abstract int objectsOf(BackendJob job);

  /**
   * Brings the live attempt to a successful end as its platform would: the fake operator marks it
   * succeeded, the fake service completes it, the process exits 0. The kit then waits until {@code
   * status} says {@link BackendPhase#SUCCEEDED}.
   */
  protected abstract void finish(ExternalRef ref);

  /**
   * Returns once the backend follows the attempt just submitted, for a backend that learns of
   * changes asynchronously and could otherwise miss the kit's next out-of-band step (an informer
   * whose watch is not up yet). Default: nothing to wait for. It may move the attempt on as its
   * platform would (e.g. to running) while it waits.
   */
  protected void awaitFollowed(ExternalRef ref) {}

  /**
   * Why this backend genuinely cannot take part in {@code point}, or empty (the default) to run it.
   * The point's tests are then reported as skipped with this reason, never silently passed. Prefer
   * making every point run: a reason here is a gap a reviewer will ask about.
   */
  protected Optional<String> unsupported(ContractPoint point) {
    return Optional.empty();
  }

  /**
   * Specs of this backend's own to place beyond {@link ContractSpecs#all()}, e.g. ones that touch
   * its configuration (a pool's GPU type, a region it has). Empty by default.
   */
  protected Map<String, JobSpec> moreSpecs() {
    return Map.of();
  }

  // ---------------------------------------------------------------------------------------------
  // SUBMIT_IS_IDEMPOTENT

  @Test
  void submittingTheSameAttemptTwiceReturnsOneReferenceAndMakesOneObject() {
    runs(ContractPoint.SUBMIT_IS_IDEMPOTENT);
    try {
      var job = newJob();
      var first = submit(job);
      var second = submit(job);

      assertThat(second).as("the second submit's reference").isEqualTo(first);
      assertThat(first.backendId()).isEqualTo(backend().id());
      assertThat(objectsOf(job)).as("objects named " + job.objectName()).isEqualTo(1);
      assertThat(status(first).phase().isTerminal()).as("live after two submits").isFalse();
    } finally {
      cancelSubmitted();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // ADOPTS_ITS_OWN_OBJECT

  @Test
  void anObjectAlreadyMadeForTheSameAttemptIsAdopted() {
    runs(ContractPoint.ADOPTS_ITS_OWN_OBJECT);
    try {
      var job = newJob();
      createOutOfBand(job, job.objectName());
      assertThat(objectsOf(job)).as("objects made out of band").isEqualTo(1);

      var ref = submit(job);

      assertThat(ref.name()).isEqualTo(job.objectName());
      assertThat(submit(job)).as("a second submit").isEqualTo(ref);
      assertThat(objectsOf(job)).as("objects after adopting").isEqualTo(1);
      status(ref);
    } finally {
      cancelSubmitted();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // REFUSES_A_FOREIGN_OBJECT

  @Test
  void anObjectOfAnotherJobUnderTheSameNameIsRefused() {
    runs(ContractPoint.REFUSES_A_FOREIGN_OBJECT);
    try {
      var job = newJob();
      var other = job(TestSpecs.newJobId(), TestSpecs.newSpecHash());
      createOutOfBand(other, job.objectName());

      assertThatThrownBy(() -> submit(job))
          .as("submit over another job's object")
          .isInstanceOf(BackendException.Rejected.class);
      assertThat(objectsOf(job)).as("objects named " + job.objectName()).isEqualTo(1);
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void anObjectOfTheSameJobWithAnotherSpecHashIsRefused() {
    runs(ContractPoint.REFUSES_A_FOREIGN_OBJECT);
    try {
      var job = newJob();
      var edited = job(job.jobId(), TestSpecs.newSpecHash());
      createOutOfBand(edited, job.objectName());

      assertThatThrownBy(() -> submit(job))
          .as("submit over an object of another spec")
          .isInstanceOf(BackendException.Rejected.class);
      assertThat(objectsOf(job)).as("objects named " + job.objectName()).isEqualTo(1);
    } finally {
      cancelSubmitted();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // DELETED_OBJECT_IS_NOT_FOUND

  @Test
  void theStatusOfAnObjectDeletedBehindTheBackendsBackIsNotFound() {
    runs(ContractPoint.DELETED_OBJECT_IS_NOT_FOUND);
    try {
      var ref = submit(newJob());
      status(ref);

      deleteOutOfBand(ref);

      awaitNotFound(ref);
    } finally {
      cancelSubmitted();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // CANCEL_IS_IDEMPOTENT

  @Test
  void cancellingALiveAttemptTwiceIsFineAndEndsIt() {
    runs(ContractPoint.CANCEL_IS_IDEMPOTENT);
    try {
      var ref = submit(newJob());

      cancel(ref);
      cancel(ref);

      awaitGoneOrEnded(ref);
      cancel(ref);
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void cancellingAFinishedAttemptIsFineAndKeepsItsEnd() {
    runs(ContractPoint.CANCEL_IS_IDEMPOTENT);
    try {
      var ref = submit(newJob());
      finish(ref);
      awaitStatus(ref, s -> s.phase() == BackendPhase.SUCCEEDED, "phase SUCCEEDED after finish");

      cancel(ref);
      cancel(ref);

      assertThat(status(ref).phase())
          .as("a finished attempt keeps its end (the backend wins the race)")
          .isEqualTo(BackendPhase.SUCCEEDED);
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void cancellingAMissingObjectIsFine() {
    runs(ContractPoint.CANCEL_IS_IDEMPOTENT);
    runs(ContractPoint.DELETED_OBJECT_IS_NOT_FOUND);
    try {
      var ref = submit(newJob());
      deleteOutOfBand(ref);
      awaitNotFound(ref);

      cancel(ref);
      cancel(ref);
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void anAttemptIsCancelledFromTheJobAloneAsWhenItsReferenceWasLost() {
    runs(ContractPoint.CANCEL_IS_IDEMPOTENT);
    try {
      var job = newJob();
      var ref = submit(job);

      // The gateway stored no reference (killed between submit and its write): only the attempt.
      run("cancelAttempt", () -> backend().cancelAttempt(job));

      awaitGoneOrEnded(ref);
      run("cancelAttempt", () -> backend().cancelAttempt(job));
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void cancellingAnAttemptNeverSubmittedIsFine() {
    runs(ContractPoint.CANCEL_IS_IDEMPOTENT);
    run("cancelAttempt", () -> backend().cancelAttempt(newJob()));
  }

  // ---------------------------------------------------------------------------------------------
  // PLACEMENTS_EXPLAIN_EVERY_REFUSAL

  @TestFactory
  Stream<DynamicTest> placementsNeverThrowAndExplainEveryRefusal() {
    runs(ContractPoint.PLACEMENTS_EXPLAIN_EVERY_REFUSAL);
    var specs = new LinkedHashMap<String, JobSpec>();
    specs.put("the contract's own job", job(TestSpecs.newJobId(), TestSpecs.newSpecHash()).spec());
    specs.putAll(ContractSpecs.all());
    specs.putAll(moreSpecs());
    return specs.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> checkPlacements(e.getValue())));
  }

  @Test
  void theContractsOwnJobIsOfferedAPlacement() {
    runs(ContractPoint.PLACEMENTS_EXPLAIN_EVERY_REFUSAL);
    var job = newJob();
    var proposals = placements(job.spec());

    assertThat(proposals.placements()).as("placements of the contract's job").isNotEmpty();
    assertThat(job.placement()).as("the contract job's placement").isNotNull();
    assertThat(job.placement().backendId()).isEqualTo(backend().id());
  }

  private void checkPlacements(JobSpec spec) {
    var proposals = placements(spec);
    var id = backend().id();

    assertThat(proposals).as("proposals").isNotNull();
    assertThat(proposals.placements())
        .as("placements")
        .allSatisfy(p -> assertThat(p.backendId()).as("a placement's backendId").isEqualTo(id));
    assertThat(proposals.rejections())
        .as("rejections")
        .allSatisfy(
            r -> {
              assertThat(r.backendId()).as("a rejection's backendId").isEqualTo(id);
              assertThat(r.reason()).as("a rejection's reason").isNotBlank();
            });
    if (proposals.placements().isEmpty()) {
      assertThat(proposals.rejections())
          .as("no placement, so at least one reason why")
          .isNotEmpty();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // ERRORS_ARE_TYPED (and every call above goes through call())

  @Test
  void everyCallOnAMissingObjectAnswersWithATypedErrorOrNothing() {
    runs(ContractPoint.ERRORS_ARE_TYPED);
    runs(ContractPoint.DELETED_OBJECT_IS_NOT_FOUND);
    try {
      var ref = submit(newJob());
      deleteOutOfBand(ref);
      awaitNotFound(ref);

      var logs =
          catchThrowable(() -> call("logs", () -> backend().logs(ref, LogQuery.ALL)).close());
      assertThat(logs)
          .as("logs of a missing object: a stream, or a typed error")
          .satisfiesAnyOf(
              t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(BackendException.class));
      run("cleanup", () -> backend().cleanup(ref));
      call("health", () -> backend().health());
    } finally {
      cancelSubmitted();
    }
  }

  @Test
  void aReferenceThatLostItsAttributesIsATypedError() {
    runs(ContractPoint.ERRORS_ARE_TYPED);
    try {
      var ref = submit(newJob());
      var bare = new ExternalRef(ref.backendId(), ref.name(), Map.of());
      if (bare.equals(ref)) {
        // The backend keeps nothing but the name: that is a readable reference.
        status(ref);
        return;
      }

      var status = catchThrowable(() -> status(bare));
      var cancel = catchThrowable(() -> cancel(bare));

      assertThat(status)
          .as("status of a reference without its attributes: a status or a typed error")
          .satisfiesAnyOf(
              t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(BackendException.class));
      assertThat(cancel)
          .as("cancel of a reference without its attributes: nothing or a typed error")
          .satisfiesAnyOf(
              t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(BackendException.class));
    } finally {
      cancelSubmitted();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers, available to subclasses' hooks.

  /**
   * Waits until the attempt's status satisfies {@code wanted}; fails with the last status after
   * {@link #SETTLE}.
   */
  protected final BackendStatus awaitStatus(
      ExternalRef ref, Predicate<BackendStatus> wanted, String what) {
    var deadline = System.nanoTime() + SETTLE.toNanos();
    BackendStatus last = null;
    while (true) {
      last = status(ref);
      if (wanted.test(last)) {
        return last;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            ref.name() + ": timed out waiting for " + what + "; last status " + last);
      }
      pause();
    }
  }

  /** A new job from {@link #job} with a fresh job id and spec hash. */
  private BackendJob newJob() {
    var job = job(TestSpecs.newJobId(), TestSpecs.newSpecHash());
    assertThat(job.objectName()).as("the job's object name").startsWith("ty-");
    return job;
  }

  private void runs(ContractPoint point) {
    unsupported(point)
        .ifPresent(
            reason -> {
              assertThat(reason).as("the reason " + point + " is unsupported").isNotBlank();
              Assumptions.abort(backend().kind() + " does not support " + point + ": " + reason);
            });
  }

  private ExternalRef submit(BackendJob job) {
    var ref = call("submit", () -> backend().submit(job));
    assertThat(ref).as("submit's reference").isNotNull();
    submitted.add(ref);
    awaitFollowed(ref);
    return ref;
  }

  private BackendStatus status(ExternalRef ref) {
    var status = call("status", () -> backend().status(ref));
    assertThat(status).as("status of " + ref.name()).isNotNull();
    return status;
  }

  private void cancel(ExternalRef ref) {
    run("cancel", () -> backend().cancel(ref));
  }

  private Proposals placements(JobSpec spec) {
    try {
      return backend().placements(spec);
    } catch (RuntimeException e) {
      throw new AssertionError("placements must never throw; it threw " + e, e);
    }
  }

  private void awaitNotFound(ExternalRef ref) {
    var deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      BackendStatus last;
      try {
        last = status(ref);
      } catch (BackendException.NotFound expected) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            ref.name() + " was deleted, but status still answers " + last + " (not NotFound)");
      }
      pause();
    }
  }

  private void awaitGoneOrEnded(ExternalRef ref) {
    var deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      BackendStatus last;
      try {
        last = status(ref);
      } catch (BackendException.NotFound gone) {
        return;
      }
      if (last.phase().isTerminal()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(ref.name() + " was cancelled, but is still " + last);
      }
      pause();
    }
  }

  /** Cancels what the test submitted; the test's own failure, if any, stays the one reported. */
  private void cancelSubmitted() {
    for (var ref : submitted) {
      try {
        backend().cancel(ref);
      } catch (RuntimeException e) {
        // Reported by the test that checks cancel; here only the cleanup is attempted.
      }
    }
    submitted.clear();
  }

  private static <T> T call(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (BackendException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new AssertionError(
          what
              + " threw "
              + e.getClass().getName()
              + ", not a BackendException: an untyped or SDK error leaked through the SPI ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  private static void run(String what, Runnable call) {
    call(
        what,
        () -> {
          call.run();
          return null;
        });
  }

  private static void pause() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
