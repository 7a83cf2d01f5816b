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
    Files.createDirectories(dir.resolve("team/wandb"));
    Files.writeString(dir.resolve("team/wandb/api-key"), "s3cr3t\n");
    Files.writeString(dir.resolve("team/wandb/multi.line"), "a\nb");

    var values =
        new LocalSecrets(dir)
            .resolve(
                "team",
                Map.of(
                    "WANDB_API_KEY", new SecretRef("wandb", "api-key"),
                    "OTHER", new SecretRef("wandb", "multi.line")));

    assertThat(values).containsEntry("WANDB_API_KEY", "s3cr3t").containsEntry("OTHER", "a\nb");
  }

  @Test
  void aMissingSecretIsRefusedByNameWithoutAnyValue() throws Exception {
    Files.createDirectories(dir.resolve("team/wandb"));
    Files.writeString(dir.resolve("team/wandb/api-key"), "s3cr3t");

    assertThatThrownBy(
            () ->
                new LocalSecrets(dir)
                    .resolve(
                        "team",
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

    assertThatThrownBy(() -> secrets.resolve("team", Map.of("X", new SecretRef("..", "outside"))))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("not a valid");
  }

  @Test
  void eachTeamReadsOnlyItsOwnSecrets() throws Exception {
    Files.createDirectories(dir.resolve("red/wandb"));
    Files.writeString(dir.resolve("red/wandb/api-key"), "red-secret");
    var secrets = new LocalSecrets(dir);

    assertThat(secrets.resolve("red", Map.of("K", new SecretRef("wandb", "api-key"))))
        .containsEntry("K", "red-secret");
    assertThatThrownBy(
            () -> secrets.resolve("blue", Map.of("K", new SecretRef("wandb", "api-key"))))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("not in <secretsDir>/blue")
        .hasMessageNotContaining(dir.toString())
        .hasMessageNotContaining("red-secret");
  }

  @Test
  void aSecretOnlyAtTheOldSharedPathIsRefusedSayingWhereToMoveIt() throws Exception {
    Files.createDirectories(dir.resolve("wandb"));
    Files.writeString(dir.resolve("wandb/api-key"), "shared-secret");

    assertThatThrownBy(
            () ->
                new LocalSecrets(dir)
                    .resolve("team", Map.of("K", new SecretRef("wandb", "api-key"))))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("old shared path <secretsDir>/wandb/api-key")
        .hasMessageContaining("move it to <secretsDir>/team/wandb/api-key")
        .hasMessageNotContaining(dir.toString())
        .hasMessageNotContaining("shared-secret");
  }
}
