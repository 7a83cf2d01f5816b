package io.trainyard.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The gateway's data directory (keys, the embedded database, attempt directories, archived logs,
 * secrets): owner-only, whatever the umask, so that neither another local user nor a sandboxed job
 * running as one can read it.
 */
final class DataDirectory {
  private final Path dir;

  DataDirectory(Path dir) {
    this.dir = dir;
  }

  /**
   * Creates the directory if needed and makes it 0700, and its {@code backends} directory, where
   * backends create theirs later (the local backend its attempt directories).
   */
  void create() {
    try {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      var backends = dir.resolve("backends");
      Files.createDirectories(backends);
      Files.setPosixFilePermissions(backends, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create dataDir " + dir, e);
    }
  }

  /** Creates {@code name} in the directory, 0700, for a part that fills it later. */
  void subdirectory(String name) {
    var sub = dir.resolve(name).normalize();
    if (!sub.getParent().equals(dir.normalize())) {
      return; // not directly in the data directory: not this directory's to make
    }
    try {
      Files.createDirectories(sub);
      Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + sub, e);
    }
  }

  /**
   * Makes everything directly in the directory owner-only: subdirectories 0700 (audit, archived
   * logs, backends' state) and files 0600 (H2 creates its files as the umask says). Run once the
   * database is open and again once everything has started, as parts create theirs on start.
   */
  void seal() {
    try (var entries = Files.list(dir)) {
      for (var entry : (Iterable<Path>) entries::iterator) {
        if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rwx------"));
        } else if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-------"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the contents of dataDir owner-only", e);
    }
  }
}
