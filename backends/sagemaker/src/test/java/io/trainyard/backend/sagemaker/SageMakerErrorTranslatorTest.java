package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

class SageMakerErrorTranslatorTest {
  private static SageMakerException answer(int status, String code) {
    return (SageMakerException)
        SageMakerException.builder()
            .statusCode(status)
            .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("m").build())
            .build();
  }

  @Test
  void anAnswerWithoutAnErrorCodeIsKnownByItsStatus() {
    // A proxy's or load balancer's 503 page carries no AWS error code: it threw a
    // NullPointerException from Set.of(...).contains(null) and the job read "NullPointerException".
    assertThat(SageMakerErrorTranslator.translate(answer(503, null), "create training job x"))
        .isInstanceOf(BackendException.Retryable.class)
        .hasMessageStartingWith("create training job x: ");
    assertThat(SageMakerErrorTranslator.translate(answer(403, null), "a"))
        .isInstanceOf(BackendException.Unauthenticated.class);
    assertThat(SageMakerErrorTranslator.translate(answer(400, null), "a"))
        .isInstanceOf(BackendException.Rejected.class);
    assertThat(SageMakerErrorTranslator.isResourceInUse(answer(400, null))).isFalse();
  }

  @Test
  void codesDecideBeforeStatuses() {
    assertThat(SageMakerErrorTranslator.translate(answer(400, "ResourceLimitExceeded"), "a"))
        .isInstanceOf(BackendException.CapacityUnavailable.class);
    assertThat(SageMakerErrorTranslator.translate(answer(400, "ThrottlingException"), "a"))
        .isInstanceOf(BackendException.Retryable.class);
  }
}
