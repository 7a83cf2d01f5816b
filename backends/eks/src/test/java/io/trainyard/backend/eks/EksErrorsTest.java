package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

class EksErrorsTest {
  private static AwsServiceException answer(int status, String code) {
    return AwsServiceException.builder()
        .statusCode(status)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
        .build();
  }

  @Test
  void anAnswerWithoutAnErrorCodeIsKnownByItsStatus() {
    // A proxy's 503 page has no AWS error code; Set.of(...).contains(null) threw.
    assertThat(EksErrors.refusesIdentity(answer(503, null))).isFalse();
    assertThat(EksErrors.refusesIdentity(answer(403, null))).isTrue();
    assertThat(EksErrors.refusesIdentity(answer(400, "ExpiredToken"))).isTrue();
  }
}
