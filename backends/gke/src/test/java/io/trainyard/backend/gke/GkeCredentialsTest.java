package io.trainyard.backend.gke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key file that cannot be used is a configuration error that names the file and the problem, and
 * never the key: neither the message nor any cause quotes the file's content.
 */
class GkeCredentialsTest {
  /** Stands for key material; must never appear in an error. */
  private static final String SECRET = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7SECRET";

  @TempDir Path dir;

  @Test
  void aMissingKeyFileIsNamed() {
    var file = dir.resolve("missing.json");
    assertThatThrownBy(() -> GkeCredentials.fromKeyFile(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "credentialsFile " + file + " cannot be read (missing, or not a readable file)");
  }

  @Test
  void aDirectoryIsNotAKeyFile() {
    assertThatThrownBy(() -> GkeCredentials.fromKeyFile(dir))
        .hasMessageContaining("credentialsFile " + dir + " cannot be read");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"type\": \"service_account\", \"private_key\": SECRET | is not JSON (line 1, column",
        "[\"SECRET\"] | is not a JSON object",
        "{\"type\": \"authorized_user\", \"refresh_token\": \"SECRET\"} | is not a service-account key (its type is authorized_user, not service_account)",
        "{\"type\": \"SECRET\"} | is not a service-account key (its type is missing or unknown",
        "{\"type\": \"service_account\", \"private_key\": \"SECRET\"} | lacks client_email",
        "{\"type\": \"service_account\", \"client_email\": \"a@b\", \"private_key\": \"SECRET\"} | private_key is not a PKCS#8 PEM key",
        "{\"type\": \"service_account\", \"client_email\": \"a@b\", \"private_key_id\": \"k\", \"client_id\": \"1\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nSECRET\\n-----END PRIVATE KEY-----\\n\"} | is not a usable service-account key",
      })
  void aKeyFileThatIsNotAServiceAccountKeyIsRefusedWithoutQuotingIt(String content, String problem)
      throws IOException {
    var file = Files.writeString(dir.resolve("key.json"), content.replace("SECRET", SECRET));

    assertThatThrownBy(() -> GkeCredentials.fromKeyFile(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("credentialsFile " + file)
        .hasMessageContaining(problem)
        .satisfies(
            e -> {
              for (Throwable t = e; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage())).doesNotContain("SECRET");
                assertThat(t.toString()).doesNotContain("SECRET");
              }
            });
  }
}
