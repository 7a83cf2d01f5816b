package io.trainyard.backend.local;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * How much disk an attempt's scratch directory takes, measured by a walk that follows no link and
 * stops as soon as the total is past the limit, so one measurement costs at most about {@code limit
 * / 4 KiB} entries however many files a job makes. Counted as disk use: every entry (file,
 * directory, link, device) at least one {@value #BLOCK}-byte block, a file's length rounded up to
 * whole blocks; a sparse file counts at its full length and a hard link once per name, both more
 * than the disk holds, never less. An entry the gateway cannot read (a directory a non-root gateway
 * was locked out of, a path longer than the system allows) makes the directory unmeasurable: a job
 * could hide its data there.
 *
 * @param bytes what was counted, up to the point the walk stopped
 * @param overLimit whether the walk stopped because {@code bytes} passed the limit
 * @param unmeasurable the path (relative to the scratch directory) that could not be read; null
 *     when everything could
 */
record ScratchUsage(long bytes, boolean overLimit, String unmeasurable) {
  static final long BLOCK = 4096;

  /** Walks {@code dir}; a directory that is not there (yet, or any more) holds nothing. */
  static ScratchUsage measure(Path dir, long limit) {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return new ScratchUsage(0, false, null);
    }
    var walk =
        new SimpleFileVisitor<Path>() {
          long bytes;
          boolean over;
          String failed;

          private FileVisitResult count(BasicFileAttributes attrs) {
            long size = attrs.isRegularFile() ? Math.max(attrs.size(), 1) : 1;
            bytes += (size + BLOCK - 1) / BLOCK * BLOCK;
            over = bytes > limit;
            return over ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
            return count(attrs);
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
            return count(attrs);
          }

          @Override
          public FileVisitResult visitFileFailed(Path f, IOException e) {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // removed meanwhile
            }
            // A name the job chose: one line, cut short.
            var name = dir.relativize(f).toString().replaceAll("[\\p{Cc}\\u2028\\u2029]", "?");
            name =
                name.isEmpty() ? "." : name.length() > 200 ? name.substring(0, 200) + "..." : name;
            failed =
                name
                    + (e instanceof AccessDeniedException
                        ? " (not readable)"
                        : " (" + reason(e) + ")");
            return FileVisitResult.TERMINATE;
          }
        };
    try {
      Files.walkFileTree(dir, walk);
    } catch (IOException e) {
      return new ScratchUsage(walk.bytes, false, "the scratch directory (" + reason(e) + ")");
    }
    return new ScratchUsage(walk.bytes, walk.over, walk.failed);
  }

  // The JDK's message names the path again; its reason is what is worth saying.
  private static String reason(IOException e) {
    var message = e instanceof java.nio.file.FileSystemException fse ? fse.getReason() : null;
    return message == null ? e.getClass().getSimpleName() : message;
  }

  /** A byte count as the configuration would write it: {@code 10 GiB}, {@code 512 MiB}. */
  static String size(long bytes) {
    String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    double value = bytes;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0
        ? bytes + " bytes"
        : value == Math.rint(value)
            ? (long) value + " " + units[unit]
            : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
