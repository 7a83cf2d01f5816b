package io.trainyard.cost;

import io.trainyard.spi.InstanceShape;
import io.trainyard.spi.InstanceShapes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Hourly prices and instance shapes by (provider, service, region, instance type), and attachable
 * accelerators by (provider, service, region, GPU type). Immutable and thread-safe; a refresh
 * builds a new catalog and swaps it in whole. The embedded default is real public prices with their
 * sources ({@code prices/catalog.csv}, {@code prices/SOURCES.md}).
 */
public final class PriceCatalog implements InstanceShapes {
  static final String HEADER =
      "provider,service,region,instanceType,gpuType,gpuCount,gpuMemoryGiB,vcpus,memoryGiB,"
          + "onDemandUsdPerHour,spotUsdPerHour,priceKind,source";
  private static final Pattern COMPILED = Pattern.compile("Date compiled: (\\d{4}-\\d{2}-\\d{2})");

  private final List<PriceRow> rows;
  private final Map<Key, PriceRow> instances = new HashMap<>();
  private final Map<Key, PriceRow> accelerators = new HashMap<>();
  private final LocalDate asOf;

  public PriceCatalog(List<PriceRow> rows, LocalDate asOf) {
    this.rows = List.copyOf(rows);
    this.asOf = asOf;
    for (var row : this.rows) {
      if (row.kind() == PriceRow.Kind.INSTANCE) {
        instances.put(key(row.provider(), row.service(), row.region(), row.instanceType()), row);
      } else {
        accelerators.put(key(row.provider(), row.service(), row.region(), row.gpuType()), row);
      }
    }
  }

  /** The catalog that ships in the jar. */
  public static PriceCatalog embedded() {
    try (var csv = resource("prices/catalog.csv");
        var sources = resource("prices/SOURCES.md")) {
      var text = new String(sources.readAllBytes(), StandardCharsets.UTF_8);
      var m = COMPILED.matcher(text);
      var asOf = m.find() ? LocalDate.parse(m.group(1)) : null;
      return new PriceCatalog(parse(csv), asOf);
    } catch (IOException e) {
      throw new UncheckedIOException("the embedded price catalog is unreadable", e);
    }
  }

  private static InputStream resource(String name) {
    var in = PriceCatalog.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("the embedded price catalog lacks " + name);
    }
    return in;
  }

  /**
   * Reads catalog CSV in the one schema of {@code SOURCES.md}.
   *
   * @throws IllegalArgumentException naming the line and column of a bad row
   */
  public static List<PriceRow> parse(InputStream csv) throws IOException {
    var reader = new BufferedReader(new InputStreamReader(csv, StandardCharsets.UTF_8));
    var header = reader.readLine();
    if (!HEADER.equals(header)) {
      throw new IllegalArgumentException("price catalog header must be: " + HEADER);
    }
    var rows = new ArrayList<PriceRow>();
    var lineNo = 1;
    for (var line = reader.readLine(); line != null; line = reader.readLine()) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      try {
        rows.add(row(line.split(",", 13)));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "price catalog line " + lineNo + ": " + e.getMessage(), e);
      }
    }
    return rows;
  }

  private static PriceRow row(String[] f) {
    if (f.length != 13) {
      throw new IllegalArgumentException("expected 13 columns, found " + f.length);
    }
    return new PriceRow(
        f[0],
        f[1],
        f[2],
        blank(f[3]),
        blank(f[4]),
        f[5].isBlank() ? 0 : Integer.parseInt(f[5]),
        f[6].isBlank() ? 0 : Double.parseDouble(f[6]),
        f[7].isBlank() ? 0 : Double.parseDouble(f[7]),
        f[8].isBlank() ? 0 : Double.parseDouble(f[8]),
        new BigDecimal(f[9]),
        f[10].isBlank() ? null : new BigDecimal(f[10]),
        PriceRow.Kind.valueOf(f[11].toUpperCase(Locale.ROOT)),
        f[12]);
  }

  private static String blank(String s) {
    return s.isBlank() ? null : s;
  }

  public Optional<PriceRow> instance(
      String provider, String service, String region, String instanceType) {
    return Optional.ofNullable(instances.get(key(provider, service, region, instanceType)));
  }

  public Optional<PriceRow> accelerator(
      String provider, String service, String region, String gpuType) {
    return Optional.ofNullable(accelerators.get(key(provider, service, region, gpuType)));
  }

  @Override
  public Optional<InstanceShape> find(
      String provider, String service, String region, String instanceType) {
    return instance(provider, service, region, instanceType)
        .map(
            r ->
                new InstanceShape(
                    r.instanceType(),
                    r.vcpus(),
                    r.memoryGiB(),
                    r.gpuType(),
                    r.gpuCount(),
                    r.gpuMemoryGiB()));
  }

  /** Every instance row of one service in one region, e.g. SageMaker's {@code ml.*} types. */
  public List<PriceRow> instances(String provider, String service, String region) {
    return rows.stream()
        .filter(r -> r.kind() == PriceRow.Kind.INSTANCE)
        .filter(
            r ->
                r.provider().equals(provider)
                    && r.service().equals(service)
                    && r.region().equals(region))
        .toList();
  }

  public List<PriceRow> rows() {
    return rows;
  }

  /**
   * This catalog with {@code more} rows after its own, e.g. those a backend module ships. Its age
   * becomes the older of the two dates.
   *
   * @param origin names where the rows come from, in the error about a repeated row
   * @throws IllegalArgumentException a row repeats one this catalog has (naming both sources)
   */
  public PriceCatalog plus(List<PriceRow> more, LocalDate compiled, String origin) {
    for (var row : more) {
      var name = row.kind() == PriceRow.Kind.INSTANCE ? row.instanceType() : row.gpuType();
      var key = key(row.provider(), row.service(), row.region(), name);
      var existing =
          row.kind() == PriceRow.Kind.INSTANCE ? instances.get(key) : accelerators.get(key);
      if (existing != null) {
        throw new IllegalArgumentException(
            origin
                + " repeats the price row "
                + key
                + " (already from: "
                + existing.source()
                + ")");
      }
    }
    var all = new ArrayList<>(rows);
    all.addAll(more);
    var age = asOf == null || (compiled != null && compiled.isBefore(asOf)) ? compiled : asOf;
    var merged = new PriceCatalog(all, age);
    if (merged.instances.size() + merged.accelerators.size() != all.size()) {
      throw new IllegalArgumentException(origin + " repeats a price row of its own");
    }
    return merged;
  }

  /** When the prices were compiled or last refreshed; null when unknown. */
  public LocalDate asOf() {
    return asOf;
  }

  private static Key key(String provider, String service, String region, String name) {
    return new Key(provider, service, region, name);
  }

  /**
   * A row's place in the catalog. A record rather than the four names joined: a quote looks up
   * several rows per placement, and the names' own hashes are already cached (issue 19).
   */
  private record Key(String provider, String service, String region, String name) {
    @Override
    public String toString() {
      return provider + '/' + service + '/' + region + '/' + name;
    }
  }
}
