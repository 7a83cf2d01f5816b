package io.trainyard.gateway.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ApiExceptionMapper;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.spi.spec.TrainingJob;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Fuzzes the spec reader and, through it, the Kubeflow reader with structurally plausible hostile
 * documents ({@link HostileDocuments}) and random bytes. Every input must either become a valid job
 * that the gateway can use (roles merged, quantities and durations converted, the job written as
 * UTF-8 for the store and the audit log) or be refused with a 4xx whose every error names a field,
 * and whose answer can be written. Tries: {@code jqwik.tries.default} (1,000 in {@code mvn verify};
 * {@code -Pfuzz} raises it, see the README).
 */
class SpecReaderFuzzTest {
  private static final SpecReader READER = new SpecReader(1 << 20);
  private static final HostileDocuments TRAINYARD = HostileDocuments.trainyard();
  private static final HostileDocuments KUBEFLOW = HostileDocuments.kubeflow();
  private static final ObjectMapper JSON = Jackson.newObjectMapper();
  private static final ApiExceptionMapper MAPPER = new ApiExceptionMapper();
  private static final AtomicLong INPUTS = new AtomicLong();
  private static final AtomicLong ACCEPTED = new AtomicLong();
  private static final long STARTED = System.nanoTime();

  @Property
  void trainyardSpecs(@ForAll("trainyard") byte[] body) {
    check(body);
  }

  @Property
  void kubeflowDocuments(@ForAll("kubeflow") byte[] body) {
    check(body);
  }

  @Property
  void randomBytes(@ForAll("bytes") byte[] body) {
    check(body);
  }

  @Provide
  Arbitrary<byte[]> trainyard() {
    return TRAINYARD.documents();
  }

  @Provide
  Arbitrary<byte[]> kubeflow() {
    return KUBEFLOW.documents();
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(512);
  }

  @AfterContainer
  static void report() {
    System.out.printf(
        "spec reader fuzz: %d inputs, %d accepted, %d refused with a 4xx, 0 other outcomes, %d ms%n",
        INPUTS.get(),
        ACCEPTED.get(),
        INPUTS.get() - ACCEPTED.get(),
        (System.nanoTime() - STARTED) / 1_000_000);
    System.out.printf("  of which reading and checking: %d ms%n", READING.get() / 1_000_000);
  }

  static final AtomicLong READING = new AtomicLong();

  static void check(byte[] body) {
    INPUTS.incrementAndGet();
    var t0 = System.nanoTime();
    try {
      checkOnce(body);
    } finally {
      READING.addAndGet(System.nanoTime() - t0);
    }
  }

  private static void checkOnce(byte[] body) {
    try {
      var parsed = READER.read(body);
      use(parsed.job());
      ACCEPTED.incrementAndGet();
    } catch (ApiException e) {
      assertThat(e.code().status()).as(e.getMessage()).isBetween(400, 499);
      var response = MAPPER.toResponse(e);
      assertThat(response.getStatus()).isBetween(400, 499);
      var answer = (io.trainyard.gateway.api.ErrorResponse) response.getEntity();
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
      io.trainyard.spi.spec.Quantities.duration(spec.cleanup().ttlAfterFinished());
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
