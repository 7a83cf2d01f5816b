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

  /** Creates the directory if needed and makes it 0700. */
  void create() {
    try {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create dataDir " + dir, e);
    }
  }

  /** Makes the embedded database's files (H2 creates them as the umask says) 0600. */
  void sealDatabaseFiles() {
    try (var files = Files.list(dir)) {
      for (var file : (Iterable<Path>) files::iterator) {
        var name = file.getFileName().toString();
        if (name.endsWith(".db") && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the database files in dataDir owner-only", e);
    }
  }
}
