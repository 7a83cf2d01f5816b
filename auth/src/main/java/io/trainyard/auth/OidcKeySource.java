package io.trainyard.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OIDC issuer's signing keys, found through discovery ({@code
 * <issuer>/.well-known/openid-configuration} → {@code jwks_uri}) and cached.
 *
 * <p>Nothing is fetched until the first token arrives, so the gateway starts while the IdP is down;
 * every later token retries. The cached keys are fetched again when a token names an unknown {@code
 * kid} (the issuer may have rotated) and when they are older than the cache lifetime. Every fetch
 * attempt, successful or not and whatever its cause, counts against one rate limit: at most one per
 * {@code minRefreshInterval}. So a flood of tokens with made-up {@code kid}s costs the IdP one
 * request per interval, and a token with a genuinely new key waits at most that long.
 *
 * <p>When a refresh fails the keys already held are kept: tokens they verify keep working through
 * an IdP outage. With no keys at all, or when a token names an unknown key and the refresh that
 * could have found it fails, {@link #get} throws {@link KeySourceException}, which {@link
 * TokenVerifier} reports as {@link AuthErrorCode#KEY_SOURCE_UNAVAILABLE} — the IdP's trouble, not
 * the caller's.
 *
 * <p>Thread-safe. Fetches are single-flight: requests that need keys while a fetch runs wait for it
 * and use its result rather than fetching again.
 */
public final class OidcKeySource implements JWKSource<SecurityContext> {
  public static final Duration DEFAULT_MIN_REFRESH_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CACHE_LIFETIME = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(OidcKeySource.class);

  /** Which of the issuer's documents a fetch was for. */
  public enum Document {
    DISCOVERY,
    JWKS
  }

  /**
   * Told of every fetch, successful or not, on the fetching thread (so it must be quick and must
   * not throw); e.g. the gateway's metrics. {@code auth} itself depends on no metrics library.
   */
  @FunctionalInterface
  public interface FetchListener {
    FetchListener NONE = (document, ok, took) -> {};

    void fetched(Document document, boolean ok, Duration took);
  }

  /** Keys as fetched at one moment. */
  private record Keys(JWKSet set, Instant fetchedAt) {}

  private final String issuer;
  private final URI configuredJwksUri;
  private final IssuerDocuments documents;
  private final Duration minRefreshInterval;
  private final Duration cacheLifetime;
  private final Clock clock;
  private final FetchListener listener;
  private final ReentrantLock fetchLock = new ReentrantLock();
  private final AtomicLong jwksFetches = new AtomicLong();
  private final AtomicLong discoveryFetches = new AtomicLong();

  private volatile Keys keys;
  // Guarded by fetchLock.
  private URI discoveredJwksUri;
  private Instant lastAttempt;
  private String lastFailure;

  private OidcKeySource(Builder builder) {
    this.issuer = builder.issuer;
    this.configuredJwksUri = builder.jwksUri;
    this.documents = new IssuerDocuments(builder.httpTimeout);
    this.minRefreshInterval = builder.minRefreshInterval;
    this.cacheLifetime = builder.cacheLifetime;
    this.clock = builder.clock;
    this.listener = builder.listener;
  }

  /**
   * @param issuer the issuer URL exactly as tokens carry it in {@code iss}; discovery is fetched
   *     from below it
   */
  public static Builder builder(String issuer) {
    return new Builder(issuer);
  }

  @Override
  public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
    Instant now = clock.instant();
    Keys seen = keys;
    if (seen == null) {
      seen = refresh(null, true);
    } else if (!now.isBefore(seen.fetchedAt().plus(cacheLifetime))) {
      seen = refresh(seen, false);
    }
    List<JWK> found = selector.select(seen.set());
    if (found.isEmpty()) {
      // The issuer may have rotated to a key we have not seen yet.
      found = selector.select(refresh(seen, true).set());
    }
    return found;
  }

  /**
   * Fetches the keys again unless someone else already did since {@code seen} was read, or the rate
   * limit says not yet.
   *
   * @param mustKnow whether the caller cannot go on with the keys it has: then a failed fetch
   *     throws rather than keeping the old keys
   */
  private Keys refresh(Keys seen, boolean mustKnow) throws KeySourceException {
    fetchLock.lock();
    try {
      // Read under the lock: a thread that waited for another's fetch must not date its own early.
      Instant now = clock.instant();
      Keys current = keys;
      if (current != seen) {
        return current;
      }
      if (lastAttempt != null && now.isBefore(lastAttempt.plus(minRefreshInterval))) {
        if (current == null) {
          throw new KeySourceException(
              "no keys from " + issuer + " yet; the last attempt failed: " + lastFailure);
        }
        return current;
      }
      lastAttempt = now;
      try {
        Keys fetched = new Keys(fetch(), now);
        keys = fetched;
        lastFailure = null;
        logKeys(current, fetched);
        return fetched;
      } catch (IOException | ParseException e) {
        // A refused connection has no message; its class says what happened.
        lastFailure = e.getMessage() != null ? e.getMessage() : e.toString();
        if (current == null || mustKnow) {
          throw new KeySourceException(
              "cannot fetch the keys of " + issuer + ": " + lastFailure, e);
        }
        LOG.warn(
            "Keeping the keys of {} fetched at {}: {}", issuer, current.fetchedAt(), lastFailure);
        return current;
      }
    } finally {
      fetchLock.unlock();
    }
  }

  private JWKSet fetch() throws IOException, ParseException {
    URI uri = jwksUri();
    jwksFetches.incrementAndGet();
    JWKSet fetched;
    var began = System.nanoTime();
    var ok = false;
    try {
      fetched = JWKSet.parse(documents.get(uri));
      ok = true;
    } catch (IOException e) {
      // The IdP may have moved its keys; discover again next time.
      discoveredJwksUri = null;
      throw e;
    } finally {
      listener.fetched(Document.JWKS, ok, Duration.ofNanos(System.nanoTime() - began));
    }
    // Only public signing keys: Keycloak publishes its encryption key in the same set.
    var signing =
        fetched.getKeys().stream()
            .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
            .map(JWK::toPublicJWK)
            .filter(Objects::nonNull)
            .toList();
    return new JWKSet(signing);
  }

  /** Says when the keys change; a refresh that finds the same keys is routine (say, a flood). */
  private void logKeys(Keys before, Keys after) {
    var kids = kids(after);
    if (before == null || !kids.equals(kids(before))) {
      LOG.info("Keys of {} are now {}", issuer, kids);
    } else {
      LOG.debug("Keys of {} unchanged: {}", issuer, kids);
    }
  }

  private static List<String> kids(Keys keys) {
    return keys.set().getKeys().stream().map(JWK::getKeyID).toList();
  }

  private URI jwksUri() throws IOException, ParseException {
    if (configuredJwksUri != null) {
      return configuredJwksUri;
    }
    if (discoveredJwksUri == null) {
      discoveryFetches.incrementAndGet();
      var began = System.nanoTime();
      var ok = false;
      try {
        discoveredJwksUri = documents.discoverJwksUri(issuer);
        ok = true;
      } finally {
        listener.fetched(Document.DISCOVERY, ok, Duration.ofNanos(System.nanoTime() - began));
      }
    }
    return discoveredJwksUri;
  }

  /** How many times the key set was fetched, successfully or not. */
  public long jwksFetches() {
    return jwksFetches.get();
  }

  /** How many times the discovery document was fetched, successfully or not. */
  public long discoveryFetches() {
    return discoveryFetches.get();
  }

  public String issuer() {
    return issuer;
  }

  /** Options of an {@link OidcKeySource}. */
  public static final class Builder {
    private final String issuer;
    private URI jwksUri;
    private Duration minRefreshInterval = DEFAULT_MIN_REFRESH_INTERVAL;
    private Duration cacheLifetime = DEFAULT_CACHE_LIFETIME;
    private Duration httpTimeout = Duration.ofSeconds(5);
    private Clock clock = Clock.systemUTC();
    private FetchListener listener = FetchListener.NONE;

    private Builder(String issuer) {
      if (issuer == null || !(issuer.startsWith("https://") || issuer.startsWith("http://"))) {
        throw new IllegalArgumentException("issuer must be an http(s) URL: " + issuer);
      }
      URI.create(issuer); // refuses what could never be fetched, now rather than per request
      this.issuer = issuer;
    }

    /** Where the keys are, skipping discovery; null (the default) discovers it. */
    public Builder jwksUri(URI jwksUri) {
      this.jwksUri = jwksUri;
      return this;
    }

    /** At most one fetch per this interval, whatever asks for it; default 30 s. */
    public Builder minRefreshInterval(Duration interval) {
      this.minRefreshInterval = requirePositive(interval, "minRefreshInterval");
      return this;
    }

    /** Keys older than this are fetched again at the next token; default 10 min. */
    public Builder cacheLifetime(Duration lifetime) {
      this.cacheLifetime = requirePositive(lifetime, "cacheLifetime");
      return this;
    }

    /** Connect and read timeout of each fetch; default 5 s. */
    public Builder httpTimeout(Duration timeout) {
      this.httpTimeout = requirePositive(timeout, "httpTimeout");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Told of every fetch (see {@link FetchListener}); none by default. */
    public Builder listener(FetchListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public OidcKeySource build() {
      return new OidcKeySource(this);
    }

    private static Duration requirePositive(Duration value, String name) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + value);
      }
      return value;
    }
  }
}
