package io.trainyard.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.audit.DigestSigner;
import io.trainyard.gateway.config.AuditConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit keys as configured, a rotated-out signing key included. */
class AuditKeysTest {
  @TempDir Path dir;

  @Test
  void keysRotatedOutAreLoadedFromTheirPublicPem() throws Exception {
    var old = DigestSigner.loadOrGenerate(dir.resolve("old"));
    var older = DigestSigner.loadOrGenerate(dir.resolve("older"));
    var config = new AuditConfig();
    config.setPreviousSigningPublicKeyFiles(
        List.of(
            dir.resolve("old").resolve(DigestSigner.PUBLIC_KEY_FILE).toString(),
            dir.resolve("older").resolve(DigestSigner.PUBLIC_KEY_FILE).toString()));

    var keys = AuditKeys.load(config, dir.resolve("data"), true);

    assertThat(keys.previousKeys().keyIds())
        .containsExactlyInAnyOrder(old.keyId(), older.keyId())
        .doesNotContain(keys.signer().keyId());
  }

  @Test
  void withoutRotationThereAreNoPreviousKeys() {
    assertThat(AuditKeys.load(new AuditConfig(), dir, true).previousKeys()).isNull();
  }

  @Test
  void aFileThatIsNotAPublicKeyIsRefusedByItsSetting() throws Exception {
    var notAKey = Files.writeString(dir.resolve("not-a-key.pem"), "hello\n");
    var config = new AuditConfig();
    config.setPreviousSigningPublicKeyFiles(List.of(notAKey.toString()));

    assertThatThrownBy(() -> AuditKeys.load(config, dir.resolve("data"), true))
        .hasMessageStartingWith("audit.previousSigningPublicKeyFiles: " + notAKey);
  }
}
