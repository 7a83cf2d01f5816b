package io.trainyard.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import io.trainyard.audit.AuditErrorCode;
import io.trainyard.audit.AuditException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A blob sink's YAML block, as the gateway binds it and hands it to the audit module. */
class BlobSinkSettingsTest {
  private static final String KEY_JSON =
      "{\n  \"type\": \"service_account\",\n  \"client_email\": \"a@p.iam.gserviceaccount.com\","
          + "\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----\\n\"\n}\n";

  @TempDir Path dir;

  private BlobSinkSettings bind(String yaml) throws Exception {
    return Jackson.newObjectMapper(new YAMLFactory()).readValue(yaml, BlobSinkSettings.class);
  }

  @Test
  void aCredentialFileIsReadWholeForAKeyThatIsNoYamlString() throws Exception {
    var key = Files.writeString(dir.resolve("gcs-key.json"), KEY_JSON);
    var settings =
        bind(
            "provider: google-cloud-storage\ncontainer: acme-audit\ncredentialFile: " + key + "\n");

    var config = settings.toBlobSinkConfig(dir);

    assertThat(config.provider()).isEqualTo("google-cloud-storage");
    assertThat(config.credential()).isEqualTo(KEY_JSON.strip());
    assertThat(config.identity()).isNull();
  }

  @Test
  void anInlineCredentialStillWorks() throws Exception {
    var settings =
        bind(
            "provider: azureblob\ncontainer: logs\nidentity: acme\ncredential: c2VjcmV0\n"
                + "endpoint: http://127.0.0.1:10000/devstoreaccount1\n");

    var config = settings.toBlobSinkConfig(dir);

    assertThat(config.credential()).isEqualTo("c2VjcmV0");
    assertThat(config.endpoint()).isEqualTo("http://127.0.0.1:10000/devstoreaccount1");
  }

  @Test
  void bothOrAnUnreadableFileAreConfigErrorsThatQuoteNoSecret() throws Exception {
    var key = Files.writeString(dir.resolve("key"), "s3cr3t-value");
    var both =
        bind(
            "provider: azureblob\ncontainer: c\ncredential: inline-s3cr3t\ncredentialFile: " + key);
    assertThatThrownBy(() -> both.toBlobSinkConfig(dir))
        .isInstanceOfSatisfying(
            AuditException.class,
            e -> {
              assertThat(e.code()).isEqualTo(AuditErrorCode.CONFIG_INVALID);
              assertThat(e.getMessage()).doesNotContain("s3cr3t");
            });

    var missing = bind("provider: azureblob\ncontainer: c\ncredentialFile: " + dir.resolve("no"));
    assertThatThrownBy(() -> missing.toBlobSinkConfig(dir))
        .isInstanceOfSatisfying(
            AuditException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("credentialFile", dir.resolve("no").toString()));
  }
}
