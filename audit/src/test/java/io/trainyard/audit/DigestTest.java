package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DigestTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final String HASH = "ab".repeat(32);

  @Test
  void aDigestVerifiesWithItsKeyAndNotOnceAlteredOrUnderAnotherKey() {
    var signer = DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
    var digest = signer.sign(1, 100, HASH, null, NOW);
    assertThat(signer.verifier().verify(digest)).isTrue();
    assertThat(digest.keyId()).isEqualTo(signer.keyId()).hasSize(64);

    var altered = new AuditDigest(1, 101, HASH, null, NOW, digest.keyId(), digest.signature());
    assertThat(signer.verifier().problem(altered))
        .hasValueSatisfying(p -> assertThat(p).contains("signature does not verify"));

    var other = DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
    var foreign = other.sign(1, 100, HASH, null, NOW);
    assertThat(signer.verifier().problem(foreign))
        .hasValueSatisfying(p -> assertThat(p).contains("another key"));
    // A forger who claims our key id still needs our private key.
    var claimed = new AuditDigest(1, 100, HASH, null, NOW, signer.keyId(), foreign.signature());
    assertThat(signer.verifier().verify(claimed)).isFalse();
  }

  @Test
  void digestsChainThroughThePreviousSignature() {
    var signer = DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
    var first = signer.next(null, 10, HASH, NOW);
    var second = signer.next(first, 25, "cd".repeat(32), NOW.plusSeconds(60));
    assertThat(second.fromSeq()).isEqualTo(11);
    assertThat(second.previousDigestSignature()).isEqualTo(first.signature());
    assertThat(DigestVerifier.linkProblem(first, second)).isEmpty();
    var skipping = signer.sign(12, 25, HASH, first.signature(), NOW);
    assertThat(DigestVerifier.linkProblem(first, skipping)).isPresent();
    var unlinked = signer.sign(11, 25, HASH, null, NOW);
    assertThat(DigestVerifier.linkProblem(first, unlinked)).isPresent();
  }

  @Test
  void aDigestSurvivesItsJsonForm() {
    var signer = DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
    var digest = signer.sign(1, 100, HASH, null, Instant.parse("2026-11-30T12:00:00.1234567Z"));
    var back = AuditDigest.fromTree(digest.toTree());
    assertThat(back).isEqualTo(digest);
    assertThat(signer.verifier().verify(back)).isTrue();
  }

  @Test
  void devKeysAreGeneratedOwnerOnlyAndLoadedAgain(@TempDir Path dir) throws Exception {
    var generated = DigestSigner.loadOrGenerate(dir.resolve("data"));
    var privateFile = dir.resolve("data").resolve(DigestSigner.PRIVATE_KEY_FILE);
    assertThat(Files.getPosixFilePermissions(privateFile))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    var loaded = DigestSigner.loadOrGenerate(dir.resolve("data"));
    assertThat(loaded.keyId()).isEqualTo(generated.keyId());
    var publicPem = Files.readString(dir.resolve("data").resolve(DigestSigner.PUBLIC_KEY_FILE));
    assertThat(DigestVerifier.fromPem(publicPem).keyId()).isEqualTo(generated.keyId());
    assertThat(loaded.verifier().verify(generated.sign(1, 1, HASH, null, NOW))).isTrue();
  }

  @Test
  void loadsAnOpenSslKeyAndDerivesTheSamePublicKey(@TempDir Path dir) throws Exception {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/openssl"))).as("openssl installed").isTrue();
    var key = dir.resolve("key.pem");
    var pub = dir.resolve("key.pub.pem");
    run("openssl", "genpkey", "-algorithm", "ed25519", "-out", key.toString());
    run("openssl", "pkey", "-in", key.toString(), "-pubout", "-out", pub.toString());

    var signer = DigestSigner.fromPemFile(key);
    assertThat(signer.keyId()).isEqualTo(DigestVerifier.fromPem(Files.readString(pub)).keyId());
    assertThat(signer.publicKeyPem()).isEqualTo(Files.readString(pub));
  }

  @Test
  void hmacKeysAreGeneratedOwnerOnly(@TempDir Path dir) throws Exception {
    var file = dir.resolve("hmac.key");
    var hmac = SecretHmac.loadOrCreate(file);
    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    assertThat(SecretHmac.loadOrCreate(file).evidence("x")).isEqualTo(hmac.evidence("x"));
  }

  @Test
  void aDigestIsDueAfterEnoughEventsOrTimeButNeverForNothing() {
    var policy = new DigestPolicy(100, Duration.ofMinutes(5));
    assertThat(policy.due(0, NOW, 0, NOW.plusSeconds(3600))).isFalse();
    assertThat(policy.due(200, NOW, 299, NOW.plusSeconds(60))).isFalse();
    assertThat(policy.due(200, NOW, 300, NOW.plusSeconds(60))).isTrue();
    assertThat(policy.due(200, NOW, 201, NOW.plus(Duration.ofMinutes(5)))).isTrue();
    assertThat(policy.due(null, NOW, 1, NOW.plusSeconds(1))).isFalse();
    assertThat(policy.due(null, NOW, 1, NOW.plusSeconds(301))).isTrue();
  }

  private static void run(String... command) throws Exception {
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue())
        .as(new String(process.getInputStream().readAllBytes()))
        .isZero();
  }
}
