package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedactorTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final SecretHmac HMAC = new SecretHmac(new byte[32]);
  private static final String JWT =
      "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz";

  @Test
  void replacesSecretLookingMembersAtAnyDepthWithEvidence() throws Exception {
    var details =
        MAPPER.readTree(
            "{\"spec\":{\"env\":{\"HF_TOKEN\":\"hf_abc\",\"EPOCHS\":\"3\","
                + "\"WANDB_API_KEY\":\"w-123\"},\"tokenizer\":\"bert-base\"},\"headers\":{\"Authorization\":"
                + "\"Basic dTpw\",\"x-request-id\":\"r1\"},\"db\":{\"password\":null,\"port\":5432},"
                + "\"clientSecret\":{\"current\":\"s1\",\"old\":[\"s0\",42]}}");
    var redacted = new Redactor(HMAC).redact(details);
    var text = redacted.toString();

    assertThat(text).doesNotContain("hf_abc", "w-123", "dTpw", "s1", "s0");
    assertThat(redacted.at("/spec/env/HF_TOKEN").asText()).isEqualTo(HMAC.evidence("hf_abc"));
    assertThat(redacted.at("/spec/env/EPOCHS").asText()).isEqualTo("3");
    assertThat(redacted.at("/spec/tokenizer").asText()).isEqualTo("bert-base");
    assertThat(redacted.at("/headers/x-request-id").asText()).isEqualTo("r1");
    assertThat(redacted.at("/db/password").isNull()).isTrue();
    assertThat(redacted.at("/db/port").asInt()).isEqualTo(5432);
    assertThat(redacted.at("/clientSecret/old/1").asText()).isEqualTo(HMAC.evidence("42"));
    assertThat(details.at("/spec/env/HF_TOKEN").asText()).as("input untouched").isEqualTo("hf_abc");
  }

  @Test
  void replacesCredentialsWhereverTheyHide() throws Exception {
    var details =
        MAPPER.readTree(
            "{\"note\":\""
                + JWT
                + "\",\"args\":[\"--header\",\"Bearer "
                + JWT
                + "\"],\"comment\":\"bearer of bad news\"}");
    var redacted = new Redactor(HMAC).redact(details);
    assertThat(redacted.toString()).doesNotContain(JWT);
    assertThat(redacted.at("/args/0").asText()).isEqualTo("--header");
    assertThat(redacted.at("/comment").asText()).isEqualTo("bearer of bad news");
  }

  @Test
  void redactingTwiceChangesNothingAndExemptNamesAreKept() throws Exception {
    var details =
        MAPPER.readTree(
            "{\"token\":\"t\",\"secretEnv\":{\"WANDB_API_KEY\":"
                + "{\"secret\":\"wandb\",\"key\":\"api-key\"}}}");
    var redactor = new Redactor(HMAC, Set.of("secretEnv"));
    var once = redactor.redact(details);
    assertThat(redactor.redact(once)).isEqualTo(once);
    assertThat(once.at("/secretEnv/WANDB_API_KEY/secret").asText()).isEqualTo("wandb");
    assertThat(new Redactor(HMAC).redact(details).at("/secretEnv/WANDB_API_KEY/secret").asText())
        .startsWith("hmac:");
  }

  @Test
  void evidenceLetsTheKeyHolderCheckAValueAndNobodyElse() {
    var evidence = HMAC.evidence("hunter2");
    assertThat(SecretHmac.isEvidence(evidence)).isTrue();
    assertThat(HMAC.matches(evidence, "hunter2")).isTrue();
    assertThat(HMAC.matches(evidence, "hunter3")).isFalse();
    var otherKey = SecretHmac.fromBase64("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=");
    assertThat(otherKey.evidence("hunter2")).isNotEqualTo(evidence);
    assertThat(Redactor.looksSecret("db.Password")).isTrue();
    assertThat(Redactor.looksSecret("passwordless")).isTrue();
    assertThat(Redactor.looksSecret("maxRuntime")).isFalse();
  }
}
