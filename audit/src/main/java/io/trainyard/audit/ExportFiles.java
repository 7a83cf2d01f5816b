package io.trainyard.audit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The files of one export, wherever they are: a local directory or a blob sink. */
interface ExportFiles {
  InputStream open(String name) throws IOException;

  boolean exists(String name);

  String describe();

  static ExportFiles of(Path dir) {
    return new ExportFiles() {
      @Override
      public InputStream open(String name) throws IOException {
        return Files.newInputStream(dir.resolve(name));
      }

      @Override
      public boolean exists(String name) {
        return Files.isRegularFile(dir.resolve(name));
      }

      @Override
      public String describe() {
        return dir.toString();
      }
    };
  }

  static ExportFiles of(BlobSink sink, String exportName) {
    var prefix = exportName.endsWith("/") ? exportName : exportName + "/";
    return new ExportFiles() {
      @Override
      public InputStream open(String name) {
        return sink.open(prefix + name);
      }

      @Override
      public boolean exists(String name) {
        return sink.exists(prefix + name);
      }

      @Override
      public String describe() {
        return sink + " " + prefix;
      }
    };
  }
}
