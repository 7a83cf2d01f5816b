package io.trainyard.backend.kubernetes;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * How attempts whose objects are gone ended, so the gateway does not read "object lost" where the
 * backend knows better:
 *
 * <ul>
 *   <li>a refusal (not admitted in time): the backend deletes the object itself and must keep
 *       saying REFUSED until the gateway has failed the job over — also across a gateway restart in
 *       between, so each refusal is a small file under {@code <dataDir>/refused/}, kept a week and
 *       read back when the backend starts;
 *   <li>a finished job the cluster deleted before the gateway read its end (a short {@code
 *       ttlAfterFinished}): its last status as the informer saw it, in memory, the newest {@value
 *       #REMEMBERED}.
 * </ul>
 *
 * Thread-safe.
 */
final class EndedAttempts {
  static final int REMEMBERED = 10_000;
  private static final Duration KEEP_REFUSALS = Duration.ofDays(7);
  private static final Pattern OBJECT_NAME = Pattern.compile("[a-z0-9-]{1,63}");

  private final Path refusedDir;
  private final Clock clock;
  // Read from disk once at start: status is asked thousands of times a minute, refusals are rare.
  private final Map<String, BackendStatus> refused = new ConcurrentHashMap<>();
  private final Map<String, BackendStatus> finished =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, BackendStatus> eldest) {
          return size() > REMEMBERED;
        }
      };

  EndedAttempts(Path dataDir, Clock clock) {
    this.refusedDir = dataDir.resolve("refused");
    this.clock = clock;
    loadRefusals();
  }

  /** Remembers a finished attempt whose object the cluster deleted. */
  synchronized void finished(String namespace, String name, BackendStatus status) {
    finished.put(key(namespace, name), status);
  }

  /** Records a refusal durably, before the object is deleted. */
  void refused(String namespace, String name, String reason) {
    var status = new BackendStatus(BackendPhase.REFUSED, reason, 0, null, clock.instant());
    try {
      Files.createDirectories(refusedDir);
      Files.writeString(file(namespace, name), reason, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the refusal of " + name, e);
    }
    refused.put(key(namespace, name), status);
  }

  /** How the attempt ended, if this backend knows. */
  Optional<BackendStatus> find(String namespace, String name) {
    var key = key(namespace, name);
    var refusal = refused.get(key);
    if (refusal != null) {
      return Optional.of(refusal);
    }
    synchronized (this) {
      return Optional.ofNullable(finished.get(key));
    }
  }

  private Path file(String namespace, String name) {
    if (!OBJECT_NAME.matcher(namespace).matches() || !OBJECT_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not an object name: " + namespace + "/" + name);
    }
    return refusedDir.resolve(namespace + "_" + name);
  }

  /** Loads the refusals of the last week; older ones are deleted, the gateway moved on long ago. */
  private void loadRefusals() {
    if (!Files.isDirectory(refusedDir)) {
      return;
    }
    var cutoff = clock.instant().minus(KEEP_REFUSALS);
    try (var files = Files.list(refusedDir)) {
      for (var f : files.toList()) {
        var at = Files.getLastModifiedTime(f).toInstant();
        var key = f.getFileName().toString().replaceFirst("_", "/");
        if (at.isBefore(cutoff)) {
          Files.deleteIfExists(f);
        } else if (key.contains("/")) {
          var reason = Files.readString(f, StandardCharsets.UTF_8);
          refused.put(key, new BackendStatus(BackendPhase.REFUSED, reason, 0, null, at));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the refusals in " + refusedDir, e);
    }
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
