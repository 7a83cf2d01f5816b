package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Our token against the one {@code aws eks get-token} makes with the same credentials: the same STS
 * URL, parameters and signed headers, and — signed for the CLI's own {@code X-Amz-Date} — the same
 * signature, byte for byte. Presigning needs no network; the CLI reads only the environment given
 * here (no config or credentials files).
 */
class EksTokenCliIT {
  private static final String KEY_ID = "AKIDEXAMPLE";
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

  @TempDir static Path home;

  @BeforeAll
  static void requireTheCli() throws Exception {
    boolean found;
    try {
      var p = new ProcessBuilder("aws", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      found = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (java.io.IOException e) {
      found = false;
    }
    assumeTrue(
        found,
        "the aws CLI (v1, `aws eks get-token`) is not on PATH: cannot compare tokens with it");
  }

  @ParameterizedTest(name = "{0} {1} session={2}")
  @CsvSource({
    "ml-prod, eu-west-1, ",
    "ml-prod, us-east-1, FwoGZXIvYXdzEBkaDNhc2Vzc2lvbi90b2tlbg+/=",
    "train_2, cn-north-1, session-token",
  })
  void ourTokenIsTheOneTheCliMakes(String cluster, String region, String sessionToken)
      throws Exception {
    var cli = PresignedUrl.ofToken(cliToken(cluster, region, sessionToken));
    AwsCredentials credentials =
        sessionToken == null
            ? AwsBasicCredentials.create(KEY_ID, SECRET)
            : AwsSessionCredentials.create(KEY_ID, SECRET, sessionToken);
    var generator =
        new EksTokenGenerator(
            cluster,
            region,
            EksTokenGenerator.regionalStsEndpoint(region),
            StaticCredentialsProvider.create(credentials),
            Clock.fixed(cli.signedAt(), ZoneOffset.UTC));

    var ours = PresignedUrl.ofToken(generator.token());

    assertThat(ours.url().getScheme()).isEqualTo(cli.url().getScheme());
    assertThat(ours.url().getHost()).isEqualTo(cli.url().getHost());
    assertThat(ours.url().getPath()).isEqualTo(cli.url().getPath());
    assertThat(ours.query().get("X-Amz-Expires")).isEqualTo("60");
    assertThat(ours.query().get("X-Amz-SignedHeaders")).isEqualTo("host;x-k8s-aws-id");
    assertThat(ours.query()).isEqualTo(cli.query());
    assertThat(ours.signature()).isNotBlank().isEqualTo(cli.signature());
  }

  private static String cliToken(String cluster, String region, String sessionToken)
      throws Exception {
    var pb =
        new ProcessBuilder(
            "aws", "eks", "get-token", "--cluster-name", cluster, "--region", region);
    var env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("AWS_"));
    env.put("AWS_ACCESS_KEY_ID", KEY_ID);
    env.put("AWS_SECRET_ACCESS_KEY", SECRET);
    if (sessionToken != null) {
      env.put("AWS_SESSION_TOKEN", sessionToken);
    }
    env.put("AWS_CONFIG_FILE", Files.createFile(home.resolve("config-" + region)).toString());
    env.put("AWS_SHARED_CREDENTIALS_FILE", home.resolve("none").toString());
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    var out = home.resolve("out-" + region + ".json");
    var err = home.resolve("err-" + region + ".txt");
    var p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("aws eks get-token finished").isTrue();
    assertThat(p.exitValue()).as("aws eks get-token: " + Files.readString(err)).isZero();
    var json = new ObjectMapper().readTree(out.toFile());
    return json.at("/status/token").asText();
  }
}
