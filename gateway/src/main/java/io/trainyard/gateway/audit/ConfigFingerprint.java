package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.audit.CanonicalJson;
import io.trainyard.audit.Redactor;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of the gateway's effective configuration, audited at start (DESIGN.md: teams,
 * backends and prices are configuration, not API, so the audit trail records which configuration
 * decided). The configuration is serialised as the gateway bound it, every secret-looking value
 * replaced by its keyed HMAC (so a changed password changes the hash, yet the hash reveals nothing
 * and cannot be brute-forced without the key), and hashed in RFC 8785 form, so that the same
 * settings give the same hash whatever the YAML's order or spelling.
 */
public final class ConfigFingerprint {
  private final ObjectMapper mapper;
  private final Redactor redactor;

  public ConfigFingerprint(ObjectMapper mapper, Redactor redactor) {
    this.mapper = mapper;
    this.redactor = redactor;
  }

  /** The redacted canonical tree of {@code config}: what the hash is taken over. */
  public ObjectNode canonical(Object config) {
    return redactor.redactObject(mapper.valueToTree(config));
  }

  /** Hex SHA-256 of {@link #canonical}'s RFC 8785 bytes. */
  public String sha256(Object config) {
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(CanonicalJson.bytes(canonical(config)));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
