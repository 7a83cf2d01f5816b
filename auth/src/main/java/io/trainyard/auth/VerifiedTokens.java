package io.trainyard.auth;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens whose signature has been verified, by the SHA-256 of the token, so a client that sends the
 * same token on every request pays for one signature check, not one per request (as the Kubernetes
 * API server caches authenticated tokens). Only the signature is remembered: every request still
 * checks the claims (issuer, audience, type, {@code exp}/{@code nbf} against the clock, {@code
 * sub}) and maps them afresh (teams the gateway knows may change), and still asks the key source
 * for the token's key — a key the issuer no longer publishes (a rotation, a revocation) no longer
 * vouches for the tokens it signed. An entry lives until the token's {@code exp}.
 *
 * <p>Bounded: above {@code capacity} entries, expired ones are dropped; if that is not enough, a
 * new token is simply not remembered. Rejected tokens are never remembered. Holds hashes, never
 * tokens. Thread-safe.
 */
final class VerifiedTokens {
  /** What a verified token's signature rested on. */
  record Entry(JWSHeader header, Key key, JWTClaimsSet claims, Instant expires) {}

  private final int capacity;
  private final Map<String, Entry> byHash = new ConcurrentHashMap<>();

  /**
   * @param capacity the most tokens remembered; 0 remembers none
   */
  VerifiedTokens(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be 0 or more: " + capacity);
    }
    this.capacity = capacity;
  }

  /** The entry of a token verified before and not yet past {@code exp}, or null. */
  Entry find(String token, Instant now) {
    if (capacity == 0) {
      return null;
    }
    var hash = hash(token);
    var entry = byHash.get(hash);
    if (entry != null && !now.isBefore(entry.expires())) {
      byHash.remove(hash, entry);
      return null;
    }
    return entry;
  }

  /** Remembers a token whose signature {@code key} verified. */
  void remember(String token, Entry entry, Instant now) {
    if (capacity == 0 || !now.isBefore(entry.expires())) {
      return;
    }
    if (byHash.size() >= capacity) {
      byHash.values().removeIf(e -> !now.isBefore(e.expires()));
      if (byHash.size() >= capacity) {
        return;
      }
    }
    byHash.put(hash(token), entry);
  }

  /** Forgets a token (its key no longer vouches for it). */
  void forget(String token) {
    byHash.remove(hash(token));
  }

  int size() {
    return byHash.size();
  }

  private static String hash(String token) {
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
