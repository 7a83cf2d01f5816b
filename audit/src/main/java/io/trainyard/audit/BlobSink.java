package io.trainyard.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Where audit exports (and archived job logs) are written: a flat namespace of blobs with {@code
 * /}-separated names. Trainyard's own interface, so that jclouds ({@link JcloudsBlobSink}) can be
 * replaced by a cloud's SDK without touching callers.
 *
 * <p>Implementations are thread-safe. {@code put} replaces a blob of the same name. Failures are
 * {@link AuditException}s: {@link AuditErrorCode#BLOB_NOT_FOUND} for a missing blob, {@link
 * AuditErrorCode#SINK_ACCESS_DENIED} when the store turns the credentials down, {@link
 * AuditErrorCode#SINK_UNAVAILABLE} when it refuses otherwise or does not answer. No message names a
 * credential.
 */
public interface BlobSink extends AutoCloseable {
  void put(String name, byte[] content);

  void put(String name, Path file);

  /** Streams {@code length} bytes from {@code content}, e.g. a job's log. */
  void put(String name, InputStream content, long length);

  /** The blob's content; the caller closes the stream. */
  InputStream open(String name);

  boolean exists(String name);

  /** Names of all blobs starting with {@code prefix}, at any depth, sorted. */
  List<String> list(String prefix);

  /** Copies every blob under {@code prefix} into {@code dir}, keeping the names below prefix. */
  default void download(String prefix, Path dir) {
    for (var name : list(prefix)) {
      var relative = name.substring(prefix.length()).replaceFirst("^/+", "");
      var target = dir.resolve(relative).normalize();
      if (relative.isEmpty() || !target.startsWith(dir.normalize())) {
        continue; // a name that would land outside dir is not ours to write
      }
      try (var in = open(name)) {
        Files.createDirectories(target.getParent());
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot download " + name + " to " + target, e);
      }
    }
  }

  @Override
  void close();
}
