package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.spec.SecretRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSecretsTest {
  @TempDir Path dir;

  @Test
  void readsEachValueFromItsFileWithoutTheFinalNewline() throws Exception {
    Files.createDirectories(dir.resolve("wandb"));
    Files.writeString(dir.resolve("wandb/api-key"), "s3cr3t\n");
    Files.writeString(dir.resolve("wandb/multi.line"), "a\nb");

    var values =
        new LocalSecrets(dir)
            .resolve(
                Map.of(
                    "WANDB_API_KEY", new SecretRef("wandb", "api-key"),
                    "OTHER", new SecretRef("wandb", "multi.line")));

    assertThat(values).containsEntry("WANDB_API_KEY", "s3cr3t").containsEntry("OTHER", "a\nb");
  }

  @Test
  void aMissingSecretIsRefusedByNameWithoutAnyValue() throws Exception {
    Files.createDirectories(dir.resolve("wandb"));
    Files.writeString(dir.resolve("wandb/api-key"), "s3cr3t");

    assertThatThrownBy(
            () ->
                new LocalSecrets(dir)
                    .resolve(
                        Map.of(
                            "A", new SecretRef("wandb", "api-key"),
                            "B", new SecretRef("wandb", "missing-key"))))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("secret 'wandb' key 'missing-key'")
        .hasMessageContaining("for B")
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void namesCannotLeaveTheDirectory() throws Exception {
    Files.writeString(dir.resolve("outside"), "nope");
    var secrets = new LocalSecrets(dir.resolve("secrets"));

    assertThatThrownBy(() -> secrets.resolve(Map.of("X", new SecretRef("..", "outside"))))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("not a valid");
  }
}
