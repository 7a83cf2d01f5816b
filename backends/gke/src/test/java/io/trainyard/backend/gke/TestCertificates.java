package io.trainyard.backend.gke;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed CA certificate made in the test, for checks that need one but no server. */
final class TestCertificates {
  private static final byte[] PEM = make();

  private TestCertificates() {}

  /** The certificate's PEM bytes. */
  static byte[] pem() {
    return PEM.clone();
  }

  private static byte[] make() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      var keys = generator.generateKeyPair();
      var name = new X500Name("CN=test-cluster-ca");
      var now = Instant.now();
      var holder =
          new JcaX509v3CertificateBuilder(
                  name,
                  BigInteger.ONE,
                  Date.from(now),
                  Date.from(now.plus(Duration.ofDays(1))),
                  name,
                  keys.getPublic())
              .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate()));
      var certificate = new JcaX509CertificateConverter().getCertificate(holder);
      var out = new StringWriter();
      try (var pem = new JcaPEMWriter(out)) {
        pem.writeObject(certificate);
      }
      return out.toString().getBytes(StandardCharsets.US_ASCII);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
