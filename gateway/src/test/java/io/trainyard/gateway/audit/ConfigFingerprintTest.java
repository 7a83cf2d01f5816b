package io.trainyard.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.Redactor;
import io.trainyard.audit.SecretHmac;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigFingerprintTest {
  private final ConfigFingerprint fingerprint =
      new ConfigFingerprint(new ObjectMapper(), new Redactor(new SecretHmac(new byte[32])));

  @Test
  void theSameSettingsHashTheSameInAnyOrder() {
    var a = new LinkedHashMap<String, Object>();
    a.put("database", Map.of("url", "jdbc:postgresql://db/ty", "password", "s3cret-pw"));
    a.put("teams", Map.of("nlp", Map.of("monthlyBudgetUsd", "100")));
    var b = new LinkedHashMap<String, Object>();
    b.put("teams", Map.of("nlp", Map.of("monthlyBudgetUsd", "100")));
    b.put("database", Map.of("password", "s3cret-pw", "url", "jdbc:postgresql://db/ty"));
    assertThat(fingerprint.sha256(a)).isEqualTo(fingerprint.sha256(b)).hasSize(64);
  }

  @Test
  void aChangedSecretChangesTheHashWithoutShowingIt() {
    var before = Map.of("database", Map.of("password", "s3cret-pw"));
    var after = Map.of("database", Map.of("password", "other-pw"));
    assertThat(fingerprint.sha256(before)).isNotEqualTo(fingerprint.sha256(after));
    assertThat(fingerprint.canonical(before).toString())
        .doesNotContain("s3cret-pw")
        .contains("hmac:");
  }
}
