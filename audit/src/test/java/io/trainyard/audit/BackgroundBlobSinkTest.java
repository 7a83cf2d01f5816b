package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A sink opened in the background: used once open, a failed open reported and tried again. */
class BackgroundBlobSinkTest {
  private static final BlobSinkConfig TRANSIENT =
      new BlobSinkConfig("transient", "exports", "", null, null, null, null);

  @Test
  void aSinkOpenedInTheBackgroundIsUsedOnceOpen() {
    var failures = new CopyOnWriteArrayList<AuditException>();
    try (var sink = BackgroundBlobSink.open(TRANSIENT, failures::add)) {
      sink.put("a/one.jsonl", "{}".getBytes(StandardCharsets.UTF_8));
      assertThat(sink.list("a/")).containsExactly("a/one.jsonl");
      assertThat(sink.exists("a/one.jsonl")).isTrue();
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void aFailedOpenIsReportedFailsItsUseAndIsTriedAgainAtTheNext() {
    var failures = new CopyOnWriteArrayList<AuditException>();
    var opens = new AtomicInteger();
    var sink =
        BackgroundBlobSink.open(
            () -> {
              if (opens.incrementAndGet() == 1) {
                throw new AuditException(
                    AuditErrorCode.SINK_UNAVAILABLE, "the store did not answer");
              }
              return JcloudsBlobSink.open(TRANSIENT);
            },
            failures::add,
            "transient:exports",
            Duration.ZERO);
    try (sink) {
      assertThatThrownBy(() -> sink.list(""))
          .isInstanceOf(AuditException.class)
          .hasMessageContaining("the store did not answer");
      assertThat(failures).extracting(Throwable::getMessage).hasSize(1);

      sink.put("b", new byte[] {1});
      assertThat(sink.list("")).isEqualTo(List.of("b"));
      assertThat(opens).hasValue(2);
    }
  }

  @Test
  void anOpenerThatThrowsSomethingElseIsASinkUnavailable() {
    var failures = new CopyOnWriteArrayList<AuditException>();
    try (var sink =
        BackgroundBlobSink.open(
            () -> {
              throw new IllegalStateException("no such provider");
            },
            failures::add,
            "nowhere:exports",
            Duration.ZERO)) {
      assertThatThrownBy(() -> sink.exists("x"))
          .isInstanceOfSatisfying(
              AuditException.class,
              e -> assertThat(e.code()).isEqualTo(AuditErrorCode.SINK_UNAVAILABLE))
          .hasMessageContaining("cannot open nowhere:exports");
      // Each failed open is reported (the use that failed has already started the next one).
      assertThat(failures)
          .isNotEmpty()
          .allSatisfy(e -> assertThat(e.code()).isEqualTo(AuditErrorCode.SINK_UNAVAILABLE));
    }
  }

  @Test
  void aSinkNotUsedOpensOnceItsDelayHasPassedAndAUseDoesNotWaitForTheDelay() throws Exception {
    var opened = new java.util.concurrent.CountDownLatch(2);
    var soon = countingOpens(opened, "transient:soon", Duration.ofMillis(1));
    var late = countingOpens(opened, "transient:late", Duration.ofHours(1));
    try (soon;
        late) {
      // The hour-long delay would hold this test for an hour: the use opens it now.
      assertThat(late.list("")).isEmpty();
      // And the other opened with nobody using it.
      assertThat(opened.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }
  }

  private static BackgroundBlobSink countingOpens(
      java.util.concurrent.CountDownLatch opened, String description, Duration after) {
    return BackgroundBlobSink.open(
        () -> {
          opened.countDown();
          return JcloudsBlobSink.open(TRANSIENT);
        },
        e -> {},
        description,
        after);
  }

  @Test
  void aClosedSinkRefusesUse() {
    var sink = BackgroundBlobSink.open(TRANSIENT, e -> {});
    sink.close();
    assertThatThrownBy(() -> sink.exists("x"))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("closed");
  }
}
