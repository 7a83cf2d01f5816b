package io.trainyard.backend.kubernetes;

import io.trainyard.spi.InstanceShape;
import io.trainyard.spi.InstanceShapes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shapes of the real price catalog in cost/, read from its CSV as the gateway's lookup would
 * serve them; a test double that cannot drift from the data it stands for.
 */
public final class CatalogShapes implements InstanceShapes {
  public static final Path CSV =
      Path.of("../../cost/src/main/resources/io/trainyard/cost/prices/catalog.csv")
          .toAbsolutePath()
          .normalize();
  public static final CatalogShapes EMBEDDED = new CatalogShapes(read());

  private final Map<String, InstanceShape> shapes;

  CatalogShapes(Map<String, InstanceShape> shapes) {
    this.shapes = Map.copyOf(shapes);
  }

  @Override
  public Optional<InstanceShape> find(
      String provider, String service, String region, String instanceType) {
    return Optional.ofNullable(shapes.get(key(provider, service, region, instanceType)));
  }

  /** Instance types of one service and region, in catalog order. */
  public static List<String> types(String provider, String service, String region) {
    return rows().stream()
        .filter(f -> f[0].equals(provider) && f[1].equals(service) && f[2].equals(region))
        .filter(f -> f[11].equals("instance"))
        .map(f -> f[3])
        .toList();
  }

  private static Map<String, InstanceShape> read() {
    var map = new HashMap<String, InstanceShape>();
    for (var f : rows()) {
      if (!f[11].equals("instance")) {
        continue;
      }
      var gpus = f[5].isBlank() ? 0 : Integer.parseInt(f[5]);
      map.put(
          key(f[0], f[1], f[2], f[3]),
          new InstanceShape(
              f[3],
              Double.parseDouble(f[7]),
              Double.parseDouble(f[8]),
              f[4].isBlank() ? null : f[4],
              gpus,
              f[6].isBlank() ? 0 : Double.parseDouble(f[6])));
    }
    return map;
  }

  private static List<String[]> rows() {
    try {
      return Files.readAllLines(CSV).stream()
          .skip(1)
          .filter(l -> !l.isBlank())
          .map(l -> l.split(",", 13))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String key(String provider, String service, String region, String type) {
    return provider + '|' + service + '|' + region + '|' + type;
  }
}
