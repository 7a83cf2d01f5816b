package io.trainyard.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Ed25519 keys in the PEM forms OpenSSL uses ({@code openssl genpkey -algorithm ed25519}): PKCS#8
 * {@code PRIVATE KEY} and X.509 {@code PUBLIC KEY}, with the JDK's own provider.
 */
final class Ed25519Keys {
  private static final Pattern PEM_BLOCK =
      Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

  private Ed25519Keys() {}

  static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Java 17 has Ed25519", e);
    }
  }

  /**
   * The key pair of a PKCS#8 private key PEM. The JDK cannot compute a public key from a private
   * one directly, but its generator derives the pair from 32 random bytes, which are the private
   * key: fed those bytes, it returns the same private key and its public key. The result is checked
   * against the input, so a provider that draws randomness differently fails here, not later.
   */
  static KeyPair fromPrivatePem(String pem) {
    try {
      var encoded = block(pem, "PRIVATE KEY");
      var loaded =
          KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(encoded));
      byte[] seed =
          ((EdECPrivateKey) loaded)
              .getBytes()
              .orElseThrow(() -> new IllegalArgumentException("the private key has no bytes"));
      var generator = KeyPairGenerator.getInstance("Ed25519");
      generator.initialize(NamedParameterSpec.ED25519, new FixedBytes(seed));
      var pair = generator.generateKeyPair();
      byte[] derived = ((EdECPrivateKey) pair.getPrivate()).getBytes().orElseThrow();
      if (!Arrays.equals(seed, derived)) {
        throw new IllegalStateException("could not derive the Ed25519 public key");
      }
      return pair;
    } catch (GeneralSecurityException | ClassCastException e) {
      throw new IllegalArgumentException("not an Ed25519 PKCS#8 private key PEM", e);
    }
  }

  static PublicKey publicFromPem(String pem) {
    try {
      return KeyFactory.getInstance("Ed25519")
          .generatePublic(new X509EncodedKeySpec(block(pem, "PUBLIC KEY")));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 public key PEM", e);
    }
  }

  /** Every {@code PUBLIC KEY} block of {@code pem}, in order; none is an empty list. */
  static java.util.List<PublicKey> publicKeysFromPem(String pem) {
    var keys = new java.util.ArrayList<PublicKey>();
    var matcher = PEM_BLOCK.matcher(pem);
    while (matcher.find()) {
      if (matcher.group(1).equals("PUBLIC KEY")) {
        try {
          keys.add(
              KeyFactory.getInstance("Ed25519")
                  .generatePublic(
                      new X509EncodedKeySpec(Base64.getMimeDecoder().decode(matcher.group(2)))));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
          throw new IllegalArgumentException("a PUBLIC KEY block is not an Ed25519 key", e);
        }
      }
    }
    return keys;
  }

  static String privatePem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  static String publicPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  /** Hex SHA-256 of the public key's X.509 SubjectPublicKeyInfo DER: the key's id. */
  static String keyId(PublicKey key) {
    return Hex.encode(AuditChain.newSha256().digest(key.getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    var body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static byte[] block(String pem, String type) {
    var matcher = PEM_BLOCK.matcher(pem);
    while (matcher.find()) {
      if (matcher.group(1).equals(type)) {
        return Base64.getMimeDecoder().decode(matcher.group(2));
      }
    }
    throw new IllegalArgumentException("no '" + type + "' PEM block");
  }

  /** Hands out the given bytes once; only for re-deriving a key pair from its private key. */
  private static final class FixedBytes extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;
    private boolean used;

    FixedBytes(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(byte[] out) {
      if (used || out.length != bytes.length) {
        throw new IllegalStateException("unexpected use of the key derivation's random source");
      }
      used = true;
      System.arraycopy(bytes, 0, out, 0, out.length);
    }
  }
}
