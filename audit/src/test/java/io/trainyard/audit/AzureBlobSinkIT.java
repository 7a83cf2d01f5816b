package io.trainyard.audit;

import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
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
}
