package io.trainyard.gateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.trainyard.gateway.config.WebhooksConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules a delivery follows, without a network: which addresses a receiver may have (literal
 * addresses, so nothing is looked up), when retries happen and stop, and the signature, checked
 * with the README's openssl one-liner where openssl is installed.
 */
class WebhookDeliveryRulesTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void receiversOnForbiddenAddressesAreRefusedAndOthersPass() {
    var config = new WebhooksConfig();
    var policy = new ReceiverPolicy(config, () -> Set.of(8081));
    for (var url :
        List.of(
            "http://169.254.169.254/latest/meta-data/",
            "http://169.254.170.2/v2/credentials",
            "http://[fe80::1]/",
            "http://[fd00:ec2::254]/",
            "http://100.100.100.200/",
            "http://0.0.0.0:8080/",
            "http://127.0.0.1:9000/",
            "http://[::1]/",
            "http://[::ffff:169.254.169.254]/",
            "http://224.0.0.1/",
            "gopher://10.0.0.1/",
            "http:///nohost",
            "http://u:p@10.0.0.1/",
            "http://10.0.0.1/#frag")) {
      assertThatThrownBy(() -> policy.checkConfigured(url))
          .as(url)
          .isInstanceOf(ReceiverPolicy.Refused.class);
    }
    policy.checkConfigured("http://10.0.0.1:8080/hook");
    policy.checkConfigured("https://192.168.1.10/hook");
    policy.checkAtDelivery(URI.create("http://10.1.2.3/hook"));

    config.setAllowLoopback(true);
    var loopback = new ReceiverPolicy(config, () -> Set.of(8081));
    loopback.checkConfigured("http://127.0.0.1:9000/");
    assertThatThrownBy(() -> loopback.checkConfigured("http://127.0.0.1:8081/tasks"))
        .hasMessageContaining("admin port");

    config.setAllowPrivateNetworks(false);
    config.setAllowedHosts(List.of("10.0.0.1", "*.example.com"));
    var strict = new ReceiverPolicy(config, Set::of);
    assertThatThrownBy(() -> strict.checkConfigured("http://10.0.0.1/"))
        .hasMessageContaining("private network");
    assertThatThrownBy(() -> strict.checkConfigured("http://10.0.0.2/"))
        .hasMessageContaining("allowedHosts");
    assertThatThrownBy(() -> strict.checkConfigured("http://example.com.evil.test/"))
        .hasMessageContaining("allowedHosts");
  }

  @Test
  void retriesBackOffExponentiallyWithJitterAndStopAtTheirBounds() {
    var low =
        new RetrySchedule(
            5, Duration.ofHours(1), Duration.ofSeconds(10), Duration.ofSeconds(25), () -> 0.0);
    var high =
        new RetrySchedule(
            5, Duration.ofHours(1), Duration.ofSeconds(10), Duration.ofSeconds(25), () -> 1.0);
    assertThat(low.next(1, T0, T0)).isEqualTo(T0.plusSeconds(5));
    assertThat(high.next(1, T0, T0)).isEqualTo(T0.plusSeconds(10));
    assertThat(high.next(2, T0, T0)).isEqualTo(T0.plusSeconds(20));
    assertThat(high.next(3, T0, T0)).as("capped").isEqualTo(T0.plusSeconds(25));
    assertThat(low.next(3, T0, T0)).isEqualTo(T0.plusMillis(12_500));
    assertThat(high.next(5, T0, T0)).as("maxAttempts used up").isNull();

    var young =
        new RetrySchedule(
            50, Duration.ofMinutes(1), Duration.ofSeconds(40), Duration.ofHours(1), () -> 1.0);
    assertThat(young.next(1, T0, T0.plusSeconds(10))).isEqualTo(T0.plusSeconds(50));
    assertThat(young.next(1, T0, T0.plusSeconds(30))).as("beyond maxAge").isNull();
    assertThat(young.expired(T0, T0.plusSeconds(61))).isTrue();
  }

  @Test
  void theSignatureCoversTimestampAndBodyAndMatchesTheReadmeOneLiner(@TempDir Path dir)
      throws Exception {
    var secret = "whsec_test-secret-0123456789";
    var body = "{\"specversion\":\"1.0\",\"id\":\"e-1\"}".getBytes(StandardCharsets.UTF_8);
    var header = WebhookSignature.header(secret, 1_900_000_000L, body);
    assertThat(header).startsWith("t=1900000000,v1=");
    assertThat(WebhookSignature.verify(secret, header, body)).isTrue();
    assertThat(WebhookSignature.verify("other-secret-0123", header, body)).isFalse();
    assertThat(WebhookSignature.verify(secret, header.replace("t=19", "t=18"), body)).isFalse();
    var tampered = "{\"specversion\":\"1.0\",\"id\":\"e-2\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(WebhookSignature.verify(secret, header, tampered)).isFalse();

    var openssl = Path.of("/usr/bin/openssl");
    assumeThat(Files.isExecutable(openssl)).as("openssl installed").isTrue();
    Files.write(dir.resolve("body.json"), body);
    // The README's check, word for word but for the variables.
    var process =
        new ProcessBuilder(
                "sh",
                "-c",
                "{ printf '%s.' \"$T\"; cat body.json; } | openssl dgst -sha256 -hmac \"$SECRET\""
                    + " | sed 's/^.*= //'")
            .directory(dir.toFile())
            .redirectErrorStream(true);
    process.environment().put("T", "1900000000");
    process.environment().put("SECRET", secret);
    var run = process.start();
    var out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(run.waitFor()).isZero();
    assertThat(header).isEqualTo("t=1900000000,v1=" + out);
  }
}
