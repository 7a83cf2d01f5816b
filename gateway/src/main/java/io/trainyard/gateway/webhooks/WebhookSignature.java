package io.trainyard.gateway.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@value #HEADER} header: {@code t=<unix seconds>,v1=<hex HMAC-SHA256>} where the MAC, keyed
 * with the secret's UTF-8 bytes, is over {@code "<t>.<body>"}, the exact bytes sent. The timestamp
 * is signed so a receiver can refuse old (replayed) deliveries. The same scheme as Stripe's, so
 * existing verifiers fit.
 */
public final class WebhookSignature {
  public static final String HEADER = "Trainyard-Signature";

  private WebhookSignature() {}

  public static String header(String secret, long unixSeconds, byte[] body) {
    return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac(secret, unixSeconds, body));
  }

  /** Whether {@code header} signs {@code body} with {@code secret} (constant-time compare). */
  public static boolean verify(String secret, String header, byte[] body) {
    if (header == null) {
      return false;
    }
    Long t = null;
    byte[] given = null;
    for (var part : header.split(",")) {
      var kv = part.trim().split("=", 2);
      if (kv.length != 2) {
        continue;
      }
      try {
        if (kv[0].equals("t")) {
          t = Long.parseLong(kv[1]);
        } else if (kv[0].equals("v1")) {
          given = HexFormat.of().parseHex(kv[1]);
        }
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
    return t != null && given != null && MessageDigest.isEqual(given, mac(secret, t, body));
  }

  private static byte[] mac(String secret, long unixSeconds, byte[] body) {
    try {
      var mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((unixSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
