package io.trainyard.backend.azureml;

import io.trainyard.spi.InstanceShape;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Azure VM sizes this module knows, read from the catalog rows it ships ({@code
 * prices/azure-vm.csv}, see {@code prices/SOURCES.md}): one file holds both the shapes placements
 * use and the prices the price book reads, each row with its source. A shape is the same in every
 * region; the regions a row lists are where its price is known.
 */
final class AzureVmSizes {
  static final String RESOURCE = "/io/trainyard/backend/azureml/prices/azure-vm.csv";

  private static final Map<String, Entry> BY_SIZE = load();

  /** Every size of the table, in file order: the default {@code vmSizes} of a backend block. */
  static final List<String> DEFAULT_SIZES = List.copyOf(BY_SIZE.keySet());

  /** A size's shape, with the regions the table prices it in and where its facts come from. */
  record Entry(InstanceShape shape, List<String> regions, String source) {}

  private AzureVmSizes() {}

  static Optional<Entry> find(String size) {
    return Optional.ofNullable(BY_SIZE.get(size));
  }

  static InputStream open() {
    return AzureVmSizes.class.getResourceAsStream(RESOURCE);
  }

  private static Map<String, Entry> load() {
    try (var in = open()) {
      var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      reader.readLine(); // header
      var sizes = new LinkedHashMap<String, Entry>();
      for (var line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        var f = line.split(",", 13);
        var gpus = f[5].isBlank() ? 0 : Integer.parseInt(f[5]);
        var shape =
            new InstanceShape(
                f[3],
                Double.parseDouble(f[7]),
                Double.parseDouble(f[8]),
                gpus > 0 ? f[4] : null,
                gpus,
                f[6].isBlank() ? 0 : Double.parseDouble(f[6]));
        var previous = sizes.get(f[3]);
        var regions = new ArrayList<String>(previous == null ? List.of() : previous.regions());
        regions.add(f[2]);
        sizes.put(f[3], new Entry(shape, List.copyOf(regions), f[12]));
      }
      return sizes;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
