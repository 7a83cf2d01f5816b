package io.trainyard.gateway.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The dashboard's built files, from the {@code trainyard-ui} jar's {@code META-INF/trainyard-ui/}:
 * {@code index.html}, the hashed {@code assets/*} and {@code manifest.json} naming them. Read once
 * and kept in memory (they are small). Thread-safe.
 */
public final class DashboardAssets {
  static final String ROOT = "META-INF/trainyard-ui/";
  private static final Pattern ASSET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,120}");

  private final ClassLoader loader;
  private final byte[] index;
  private final String stylesheet;
  private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

  private DashboardAssets(ClassLoader loader, byte[] index, String stylesheet) {
    this.loader = loader;
    this.index = index;
    this.stylesheet = stylesheet;
  }

  /** The built dashboard on the class path; empty when the gateway was built without it. */
  public static Optional<DashboardAssets> load() {
    var loader = DashboardAssets.class.getClassLoader();
    var index = read(loader, ROOT + "index.html");
    var manifest = read(loader, ROOT + "manifest.json");
    if (index == null || manifest == null) {
      return Optional.empty();
    }
    try {
      var css = new ObjectMapper().readTree(manifest).path("css").asText(null);
      return Optional.of(new DashboardAssets(loader, index, css == null ? null : "/" + css));
    } catch (IOException e) {
      throw new UncheckedIOException("the dashboard's manifest.json is not JSON", e);
    }
  }

  private static byte[] read(ClassLoader loader, String name) {
    try (InputStream in = loader.getResourceAsStream(name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  public byte[] index() {
    return index.clone();
  }

  /** The stylesheet's path ({@code /assets/app-HASH.css}), for the gateway's own pages. */
  public String stylesheet() {
    return stylesheet;
  }

  /** A file under {@code assets/} by its (hashed) name; empty for any other name. */
  public Optional<byte[]> asset(String name) {
    if (!ASSET.matcher(name).matches()) {
      return Optional.empty();
    }
    var bytes = cache.computeIfAbsent(name, n -> read(loader, ROOT + "assets/" + n));
    return Optional.ofNullable(bytes);
  }

  static String contentType(String name) {
    if (name.endsWith(".js")) {
      return "text/javascript; charset=utf-8";
    }
    if (name.endsWith(".css")) {
      return "text/css; charset=utf-8";
    }
    if (name.endsWith(".svg")) {
      return "image/svg+xml";
    }
    if (name.endsWith(".png")) {
      return "image/png";
    }
    return "text/plain; charset=utf-8";
  }
}
