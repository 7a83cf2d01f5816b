package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceRow;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Prices a catalog row of {@code gcp} from Billing Catalog SKUs. Compute Engine bills a machine as
 * vCPUs and memory of its family, plus attached GPUs; the catalog row's own shape says how many:
 *
 * <ul>
 *   <li>instance row: {@code vcpus × <Family> Core + memoryGiB × <Family> Ram}, plus {@code
 *       gpuCount × <GPU>} when the machine type has fixed GPUs (a2, a3, g2) — the same sum the
 *       embedded catalog was built with;
 *   <li>accelerator row: one {@code <GPU>}.
 * </ul>
 *
 * Families: n1 → {@code N1 Predefined Instance}, n2 → {@code N2 Instance}, a2 → {@code A2
 * Instance}, a3 → {@code A3 Instance}, g2 → {@code G2 Instance}. GPUs: see {@link #GPU_SKUS}. Units
 * must be {@code h} (cores, GPUs) and {@code GiBy.h} (memory). A part with no SKU in the row's
 * region, or with SKUs of different prices there, leaves the row as it was.
 */
final class GcpSkuMapping {
  /** Machine family (the machine type's first word) → the stem of its SKU descriptions. */
  static final Map<String, String> MACHINE_SKUS =
      Map.of(
          "n1", "N1 Predefined Instance",
          "n2", "N2 Instance",
          "a2", "A2 Instance",
          "a3", "A3 Instance",
          "g2", "G2 Instance");

  /** Catalog GPU type → the start of its SKU descriptions. */
  static final Map<String, String> GPU_SKUS =
      Map.of(
          "nvidia-t4", "Nvidia Tesla T4 GPU",
          "nvidia-v100-16gb", "Nvidia Tesla V100 GPU",
          "nvidia-a100-40gb", "Nvidia Tesla A100 GPU",
          "nvidia-l4", "Nvidia L4 GPU",
          "nvidia-h100-80gb", "Nvidia H100 80GB GPU");

  /** How the SKUs of one service are told apart. */
  enum Flavour {
    /**
     * Compute Engine: on-demand {@code "<part> running in <place>"} with usage type {@code
     * OnDemand}; spot {@code "Spot Preemptible <family> Core|Ram running in ..."} and {@code "<GPU>
     * attached to Spot Preemptible VMs running in ..."} with usage type {@code Preemptible}.
     */
    GCE(true) {
      @Override
      boolean matches(GcpSku sku, Part part, boolean spot) {
        var d = sku.description();
        if (spot) {
          return sku.usageType().equals("Preemptible")
              && (part.gpu()
                  ? d.startsWith(part.phrase() + " attached to Spot")
                  : d.startsWith("Spot Preemptible " + part.phrase() + " running in "));
        }
        return sku.usageType().equals("OnDemand") && d.startsWith(part.phrase() + " running in ");
      }
    },
    /**
     * Vertex AI: an on-demand SKU whose description names training and the same part as Compute
     * Engine does. Not checked against a live answer; rows without such SKUs are kept.
     */
    VERTEX(false) {
      @Override
      boolean matches(GcpSku sku, Part part, boolean spot) {
        var d = sku.description();
        return !spot
            && sku.usageType().equals("OnDemand")
            && d.contains("Training")
            && !d.contains("Spot")
            && !d.contains("Preemptible")
            && (d.contains(part.phrase() + " ") || d.endsWith(part.phrase()));
      }
    };

    final boolean hasSpot;

    Flavour(boolean hasSpot) {
      this.hasSpot = hasSpot;
    }

    abstract boolean matches(GcpSku sku, Part part, boolean spot);
  }

  /** One billed part: {@code N1 Predefined Instance Core}, {@code Nvidia Tesla T4 GPU}. */
  record Part(String phrase, boolean gpu, String unit) {
    static Part core(String stem) {
      return new Part(stem + " Core", false, "h");
    }

    static Part ram(String stem) {
      return new Part(stem + " Ram", false, "GiBy.h");
    }

    static Part gpu(String name) {
      return new Part(name, true, "h");
    }
  }

  /** A USD price, or why there is none. */
  record Lookup(BigDecimal usd, String problem) {
    static Lookup of(BigDecimal usd) {
      return new Lookup(usd, null);
    }

    static Lookup missing(String problem) {
      return new Lookup(null, problem);
    }

    boolean found() {
      return problem == null;
    }

    Lookup times(double count) {
      return found() ? of(usd.multiply(BigDecimal.valueOf(count))) : this;
    }

    Lookup plus(Lookup other) {
      if (!found()) {
        return this;
      }
      return other.found() ? of(usd.add(other.usd)) : other;
    }
  }

  private GcpSkuMapping() {}

  /** The hourly price of the row from the SKUs, on-demand or spot. */
  static Lookup price(PriceRow row, Flavour flavour, List<GcpSku> skus, boolean spot) {
    if (row.kind() == PriceRow.Kind.ACCELERATOR) {
      return gpu(row.gpuType(), row.region(), flavour, skus, spot);
    }
    var family = row.instanceType().split("-", 2)[0];
    var stem = MACHINE_SKUS.get(family);
    if (stem == null) {
      return Lookup.missing("no SKU mapping for machine family " + family);
    }
    var host =
        find(Part.core(stem), row.region(), flavour, skus, spot)
            .times(row.vcpus())
            .plus(find(Part.ram(stem), row.region(), flavour, skus, spot).times(row.memoryGiB()));
    if (row.gpuType() == null || row.gpuCount() == 0) {
      return host;
    }
    return host.plus(gpu(row.gpuType(), row.region(), flavour, skus, spot).times(row.gpuCount()));
  }

  private static Lookup gpu(
      String gpuType, String region, Flavour flavour, List<GcpSku> skus, boolean spot) {
    var name = GPU_SKUS.get(gpuType);
    if (name == null) {
      return Lookup.missing("no SKU mapping for GPU " + gpuType);
    }
    return find(Part.gpu(name), region, flavour, skus, spot);
  }

  /** The one price of a part in a region; more than one distinct price is not guessed at. */
  static Lookup find(Part part, String region, Flavour flavour, List<GcpSku> skus, boolean spot) {
    var what = "'" + part.phrase() + "'" + (spot ? " (spot)" : "") + " in " + region;
    var prices = new TreeSet<BigDecimal>();
    for (var sku : skus) {
      if (!sku.availableIn(region) || !flavour.matches(sku, part, spot)) {
        continue;
      }
      if (sku.usdPerUnit() == null) {
        return Lookup.missing("SKU " + sku.skuId() + " for " + what + ": " + sku.priceProblem());
      }
      if (!sku.usageUnit().equals(part.unit())) {
        return Lookup.missing(
            "SKU "
                + sku.skuId()
                + " for "
                + what
                + " is per "
                + sku.usageUnit()
                + ", not "
                + part.unit());
      }
      prices.add(sku.usdPerUnit());
    }
    if (prices.isEmpty()) {
      return Lookup.missing("no SKU for " + what);
    }
    if (prices.size() > 1) {
      return Lookup.missing("several SKUs for " + what + " with prices " + prices);
    }
    return Lookup.of(prices.first());
  }
}
