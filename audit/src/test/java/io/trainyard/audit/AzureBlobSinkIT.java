package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The {@code azureblob} sink through jclouds against Azurite. */
@ExtendWith(AzuriteServer.class)
class AzureBlobSinkIT {
  @Test
  void smoke(AzuriteServer azurite) throws Exception {
    var config =
        new BlobSinkConfig(
            "azureblob",
            "trainyard-smoke",
            "p",
            azurite.endpoint(),
            AzuriteServer.ACCOUNT,
            AzuriteServer.KEY,
            null);
    try (var sink = JcloudsBlobSink.open(config)) {
      sink.put("a/b.txt", "hello".getBytes(StandardCharsets.UTF_8));
      assertThat(sink.list("a/")).containsExactly("a/b.txt");
      try (var in = sink.open("a/b.txt")) {
        assertThat(in.readAllBytes()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
