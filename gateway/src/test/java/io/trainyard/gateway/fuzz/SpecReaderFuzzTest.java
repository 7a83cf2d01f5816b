package io.trainyard.gateway.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.trainyard.gateway.api.ErrorResponse;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ApiExceptionMapper;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.TrainingJob;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the spec reader and, through it, the Kubeflow reader with structurally plausible hostile
 * documents ({@link HostileDocuments}) and random bytes. Every input must either become a valid job
 * that the gateway can use (roles merged, quantities and durations converted, the job written as
 * UTF-8 for the store and the audit log) or be refused with a 4xx whose every error names a field,
 * and whose answer can be written. Inputs per test: {@link FuzzRun} (500 in {@code mvn verify},
 * 25,000 with {@code -Pfuzz}).
 */
class SpecReaderFuzzTest {
  private static final SpecReader READER = new SpecReader(1 << 20);
  private static final HostileDocuments TRAINYARD = HostileDocuments.trainyard();
  private static final HostileDocuments KUBEFLOW = HostileDocuments.kubeflow();
  private static final ObjectMapper JSON = Jackson.newObjectMapper();
  private static final ApiExceptionMapper MAPPER = new ApiExceptionMapper();
  private static final FuzzRun RUN = FuzzRun.configured();
  private static final AtomicLong INPUTS = new AtomicLong();
  private static final AtomicLong ACCEPTED = new AtomicLong();
  private static final long STARTED = System.nanoTime();

  @Test
  void trainyardSpecs() {
    RUN.check(TRAINYARD::generate, SpecReaderFuzzTest::check);
  }

  @Test
  void kubeflowDocuments() {
    RUN.check(KUBEFLOW::generate, SpecReaderFuzzTest::check);
  }

  @Test
  void randomBytes() {
    RUN.check(
        random -> {
          var bytes = new byte[random.nextInt(513)];
          random.nextBytes(bytes);
          return bytes;
        },
        SpecReaderFuzzTest::check);
  }

  @AfterAll
  static void report() {
    System.out.printf(
        "spec reader fuzz (seed %d): %d inputs, %d accepted, %d refused with a 4xx naming a field,"
            + " 0 other outcomes, %d ms%n",
        RUN.seed(),
        INPUTS.get(),
        ACCEPTED.get(),
        INPUTS.get() - ACCEPTED.get(),
        (System.nanoTime() - STARTED) / 1_000_000);
  }

  private static void check(byte[] body) {
    INPUTS.incrementAndGet();
    try {
      var parsed = READER.read(body);
      use(parsed.job());
      ACCEPTED.incrementAndGet();
    } catch (ApiException e) {
      assertThat(e.code().status()).as(e.getMessage()).isBetween(400, 499);
      var response = MAPPER.toResponse(e);
      assertThat(response.getStatus()).isBetween(400, 499);
      var answer = (ErrorResponse) response.getEntity();
      assertThat(answer.errors()).as(e.getMessage()).isNotEmpty().hasSizeLessThanOrEqualTo(100);
      assertThat(answer.errors()).allSatisfy(f -> assertThat(f.field()).isNotBlank());
      assertThat(encodable(write(answer))).as(e.getMessage()).isTrue();
    }
  }

  /** What the gateway does with a valid job before a backend sees it. */
  private static void use(TrainingJob job) {
    var spec = job.spec();
    for (var role : spec.roleSpecs()) {
      role.resources().memoryBytes();
      role.resources().cpuCount();
    }
    spec.totalGpus();
    spec.maxRuntimeDuration();
    if (spec.cleanup() != null && spec.cleanup().ttlAfterFinished() != null) {
      Quantities.duration(spec.cleanup().ttlAfterFinished());
    }
    assertThat(encodable(write(job))).as("a valid job must be storable as UTF-8").isTrue();
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError("cannot be written as JSON: " + e.getMessage(), e);
    }
  }

  private static boolean encodable(String text) {
    try {
      StandardCharsets.UTF_8
          .newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(text));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
