package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code google-cloud-storage} sink through jclouds' provider against {@link FakeGcsServer}, a
 * local stub of the GCS JSON API and Google's token endpoint (there is no GCS emulator to install
 * here, ../shared/DEPENDENCIES.md). The credential is a service-account key file's JSON: jclouds
 * signs the JWT-bearer grant with its key, posts it to its {@code token_uri} and sends the token it
 * gets as a bearer with every storage request, which the stub checks.
 */
class GcsBlobSinkIT extends BlobSinkContract {
  private static final Pattern PEM_BODY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----\\\\n([A-Za-z0-9+/=]{64})");

  private static FakeGcsServer gcs;
  private static String key;
  private static String otherKey;

  @BeforeAll
  static void start() {
    gcs = new FakeGcsServer();
    key = gcs.keyJson();
    otherKey = gcs.otherKeyJson();
  }

  @AfterAll
  static void stop() {
    gcs.close();
  }

  @AfterEach
  void everyGrantWasValidButTheWrongKeys() {
    assertThat(gcs.takeRefusals()).allMatch(r -> r.equals("Invalid JWT Signature."));
  }

  @Override
  BlobSinkConfig config(String container, String prefix) {
    return new BlobSinkConfig(
        "google-cloud-storage", container, prefix, gcs.endpoint(), null, key, null);
  }

  @Override
  BlobSinkConfig withWrongCredentials(BlobSinkConfig config) {
    return new BlobSinkConfig(
        config.provider(),
        config.container(),
        config.prefix(),
        config.endpoint(),
        null,
        otherKey,
        null);
  }

  @Override
  Stream<String> secrets() {
    // And no JWT (a signed grant assertion or a token starts with the base64 of '{"'): "eyJ".
    return Stream.of(firstKeyLine(key), firstKeyLine(otherKey), "PRIVATE KEY", "eyJ");
  }

  @Test
  void theKeyFilesAccountIsTheIdentityAndAnotherIdentityIsAConfigError() {
    var config =
        new BlobSinkConfig(
            "google-cloud-storage",
            newContainer("identity"),
            "",
            gcs.endpoint(),
            FakeGcsServer.CLIENT_EMAIL,
            key,
            null);
    try (var sink = JcloudsBlobSink.open(config)) {
      sink.put("x", new byte[] {42});
      assertThat(sink.exists("x")).isTrue();
    }
    var other =
        new BlobSinkConfig(
            "google-cloud-storage",
            newContainer("identity"),
            "",
            gcs.endpoint(),
            "someone@else.iam.gserviceaccount.com",
            key,
            null);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> JcloudsBlobSink.open(other))
        .isInstanceOfSatisfying(
            AuditException.class,
            e -> {
              assertThat(e.code()).isEqualTo(AuditErrorCode.CONFIG_INVALID);
              assertThat(e.getMessage()).doesNotContain(firstKeyLine(key));
            });
  }

  private static String firstKeyLine(String keyJson) {
    var matcher = PEM_BODY.matcher(keyJson);
    assertThat(matcher.find()).as("the key JSON holds a PEM").isTrue();
    return matcher.group(1);
  }
}
