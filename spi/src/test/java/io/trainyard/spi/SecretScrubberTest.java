package io.trainyard.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretScrubberTest {
  private static final String JWT =
      "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";

  @Test
  void theJobsOwnSecretValuesAreRemovedWhereverTheyAppear() {
    var scrubber =
        SecretScrubber.of(List.of("wandb-7f3a9c2e", "line-one-secret\nline-two-secret\n"));
    assertThat(
            scrubber.scrub(
                "Traceback: login failed for key wandb-7f3a9c2e (wandb-7f3a9c2e)\n"
                    + "cert: line-two-secret"))
        .isEqualTo("Traceback: login failed for key [REDACTED] ([REDACTED])\ncert: [REDACTED]");
  }

  @Test
  void aJobsMetricsTokenIsRecognisedByItsShape() {
    var token = "tym_" + "Ab0_-".repeat(9);
    assertThat(SecretScrubber.shapes().scrub("posting with " + token + " failed"))
        .isEqualTo("posting with [REDACTED] failed");
    assertThat(SecretScrubber.shapes().scrub("tym_short stays")).isEqualTo("tym_short stays");
  }

  @Test
  void shortValuesAreLeftAloneSoOrdinaryWordsSurvive() {
    assertThat(SecretScrubber.of(List.of("1", "abc")).scrub("epoch 1 abc loss 0.1"))
        .isEqualTo("epoch 1 abc loss 0.1");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Authorization: Bearer abcdefgh12345678             | Authorization: Bearer [REDACTED]
          aws key AKIAIOSFODNN7EXAMPLE used                  | aws key [REDACTED] used
          export DB_PASSWORD=s3cr3t-Pa55                     | export DB_PASSWORD=[REDACTED]
          {"api_key": "0123456789abcdef"}                    | {"api_key": "[REDACTED]"}
          client_secret: 'hunter2hunter2'                    | client_secret: '[REDACTED]'
          token=abc                                          | token=abc
          the token expired at 10:00                         | the token expired at 10:00
          gh token ghp_abcdefghijklmnopqrstuvwxyz0123456789  | gh token [REDACTED]
          epoch 3 loss 0.25 accuracy 0.91                    | epoch 3 loss 0.25 accuracy 0.91
          """)
  void credentialShapesAreRemovedAndOrdinaryOutputIsNot(String in, String out) {
    assertThat(SecretScrubber.shapes().scrub(in)).isEqualTo(out);
  }

  @Test
  void aJwtAndAPrivateKeyAreRemovedWhole() {
    var pem =
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nkqhkiG9w0BAQEF\n-----END PRIVATE KEY-----";
    assertThat(SecretScrubber.shapes().scrub("token " + JWT + " and\n" + pem + "\nafter"))
        .isEqualTo("token [REDACTED] and\n[REDACTED]\nafter");
  }

  @Test
  void scrubbingAHugeLineStaysLinear() {
    var line = "password=" + "a".repeat(200_000) + " eyJ" + "x".repeat(200_000);
    var scrubbed = SecretScrubber.shapes().scrub(line);
    assertThat(scrubbed).startsWith("password=[REDACTED] eyJ");
  }
}
