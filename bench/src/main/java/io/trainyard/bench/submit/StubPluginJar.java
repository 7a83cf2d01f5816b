package io.trainyard.bench.submit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * The stub backend as a plugin jar of its own (its three classes and a ServiceLoader entry), to put
 * on a gateway process's classpath beside {@code trainyard.jar}: the benchmark jar itself holds a
 * second copy of the whole gateway, so it cannot go there.
 */
final class StubPluginJar {
  private static final List<Class<?>> CLASSES =
      List.of(StubBackendFactory.class, StubBackend.class, StubConfig.class);

  private StubPluginJar() {}

  static Path write(Path dir) {
    var jar = dir.resolve("trainyard-bench-stub.jar");
    try (var out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (var type : CLASSES) {
        var name = type.getName().replace('.', '/') + ".class";
        try (var in = type.getClassLoader().getResourceAsStream(name)) {
          if (in == null) {
            throw new IllegalStateException("no class file for " + name);
          }
          out.putNextEntry(new JarEntry(name));
          in.transferTo(out);
          out.closeEntry();
        }
      }
      out.putNextEntry(new JarEntry("META-INF/services/io.trainyard.spi.BackendFactory"));
      out.write((StubBackendFactory.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jar;
  }
}
