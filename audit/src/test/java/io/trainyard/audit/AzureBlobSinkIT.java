package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code azureblob} sink through jclouds' provider against Azurite, addressed path-style
 * ({@code http://127.0.0.1:PORT/devstoreaccount1}), signed with the emulator's well-known key.
 */
@ExtendWith(AzuriteServer.class)
class AzureBlobSinkIT extends BlobSinkContract {
  /** A well-formed key that is not the account's: 64 bytes, as Azure's are. */
  private static final String WRONG_KEY = Base64.getEncoder().encodeToString(new byte[64]);

  private String endpoint;

  @BeforeEach
  void endpoint(AzuriteServer azurite) {
    endpoint = azurite.endpoint();
  }

  @Override
  BlobSinkConfig config(String container, String prefix) {
    return new BlobSinkConfig(
        "azureblob", container, prefix, endpoint, AzuriteServer.ACCOUNT, AzuriteServer.KEY, null);
  }

  @Override
  BlobSinkConfig withWrongCredentials(BlobSinkConfig config) {
    return new BlobSinkConfig(
        config.provider(),
        config.container(),
        config.prefix(),
        config.endpoint(),
        config.identity(),
        WRONG_KEY,
        null);
  }

  @Override
  Stream<String> secrets() {
    return Stream.of(AzuriteServer.KEY, WRONG_KEY);
  }

  @Test
  void aSasTokenTheStoreRefusesIsNotInTheErrorOrItsCauses() {
    // jclouds sends a SAS credential in each request's query string.
    var signature = "c2lnbmF0dXJlLXRoYXQtYXp1cml0ZS1yZWZ1c2Vz";
    var sas =
        "sv=2020-08-04&ss=b&srt=sco&sp=rwdlac&se=2030-01-01T00:00:00Z&spr=http&sig=" + signature;
    var config =
        new BlobSinkConfig(
            "azureblob", newContainer("sas"), "", endpoint, AzuriteServer.ACCOUNT, sas, null);
    assertThatThrownBy(() -> JcloudsBlobSink.open(config))
        .isInstanceOfSatisfying(
            AuditException.class,
            e -> {
              assertThat(e.code()).isEqualTo(AuditErrorCode.SINK_ACCESS_DENIED);
              for (Throwable t = e; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage())).doesNotContain(signature);
              }
            });
  }
}
