package io.trainyard.audit;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes key files that only their owner may read. The file is created with mode 0600 from the
 * start (not chmod-ed after writing), so there is no moment when another user could read it; on a
 * file system without POSIX permissions it is created normally.
 */
final class OwnerOnlyFiles {
  private OwnerOnlyFiles() {}

  /**
   * @throws FileAlreadyExistsException rather than overwrite a key
   */
  static void write(Path file, byte[] content) throws IOException {
    var parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    var ownerOnly =
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    try {
      Files.createFile(file, ownerOnly);
    } catch (UnsupportedOperationException e) {
      Files.createFile(file);
    }
    Files.write(file, content, StandardOpenOption.TRUNCATE_EXISTING);
  }
}
