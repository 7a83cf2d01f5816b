package io.trainyard.cost;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Prices placements from the catalog, line by line: instances × the instance's price (spot or
 * on-demand), plus attached accelerators where the host's row has no GPUs of its own (GCE n1 + T4),
 * plus the job's share of a cluster fee. An operator's price for the whole placement wins. Where a
 * managed service has no row, the matching VM's price plus the operator's managed premium is used —
 * and marked estimated. Thread-safe; {@link #replace} swaps in a refreshed catalog.
 */
public final class CatalogPriceBook implements PriceBook {
  /** Managed services and the VM service whose machines they run on. */
  private static final Map<String, String> VM_SERVICE = Map.of("sagemaker", "ec2", "vertex", "gce");

  private final AtomicReference<PriceCatalog> catalog;
  private final BigDecimal managedPremiumPct;

  /**
   * @param managedPremiumPct added to a VM price to estimate a managed instance the catalog lacks;
   *     null to refuse to estimate
   */
  public CatalogPriceBook(PriceCatalog catalog, BigDecimal managedPremiumPct) {
    this.catalog = new AtomicReference<>(Objects.requireNonNull(catalog, "catalog"));
    this.managedPremiumPct = managedPremiumPct;
  }

  public PriceCatalog catalog() {
    return catalog.get();
  }

  /** Swaps in a refreshed catalog; quotes already running keep the one they started with. */
  public void replace(PriceCatalog refreshed) {
    catalog.set(Objects.requireNonNull(refreshed, "refreshed"));
  }

  @Override
  public LocalDate asOf() {
    return catalog.get().asOf();
  }

  @Override
  public Priced price(Placement placement) {
    if (placement.operatorUsdPerHour() != null) {
      var fee = placement.clusterFeeUsdPerHour();
      return Priced.of(
          new Price(
              fee == null
                  ? placement.operatorUsdPerHour()
                  : placement.operatorUsdPerHour().add(fee),
              false,
              fee == null
                  ? Price.OPERATOR_SOURCE
                  : Price.OPERATOR_SOURCE
                      + " + cluster fee share $"
                      + fee.stripTrailingZeros().toPlainString()
                      + "/h"));
    }
    var current = catalog.get();
    var total = BigDecimal.ZERO;
    var estimated = false;
    var sources = new LinkedHashSet<String>();
    // Line by line, so an offer shows what its hourly price is made of.
    var breakdown = new ArrayList<String>();
    for (var line : placement.lines()) {
      var unit = unitPrice(current, placement, line);
      if (unit.price() == null) {
        return unit;
      }
      total = total.add(unit.price().usdPerHour().multiply(BigDecimal.valueOf(line.count())));
      estimated |= unit.price().estimated();
      sources.add(unit.price().source());
      breakdown.add(
          line.count()
              + " × "
              + line.instanceType()
              + (line.gpus() > 0 && line.gpuType() != null
                  ? " + " + line.gpus() + " × " + line.gpuType()
                  : "")
              + " @ $"
              + unit.price().usdPerHour().stripTrailingZeros().toPlainString()
              + "/h");
    }
    if (placement.clusterFeeUsdPerHour() != null) {
      total = total.add(placement.clusterFeeUsdPerHour());
      sources.add("cluster fee set by the operator");
      breakdown.add(
          "cluster fee share $"
              + placement.clusterFeeUsdPerHour().stripTrailingZeros().toPlainString()
              + "/h");
    }
    return Priced.of(
        new Price(
            total,
            estimated,
            String.join(" + ", breakdown) + " (" + String.join("; ", sources) + ")"));
  }

  /** One instance of the line: its row's price plus any attached accelerators. */
  private Priced unitPrice(PriceCatalog current, Placement p, PlacementLine line) {
    var priced = instancePrice(current, p, line.instanceType());
    if (priced.price() == null || line.gpus() == 0) {
      return priced;
    }
    var host =
        current.instance(p.provider(), vmServiceOr(p.service()), p.region(), vmType(p, line));
    var builtInGpus = host.map(PriceRow::gpuCount).orElse(0);
    var rowGpus =
        current
            .instance(p.provider(), p.service(), p.region(), line.instanceType())
            .map(PriceRow::gpuCount)
            .orElse(builtInGpus);
    if (rowGpus > 0) {
      return priced; // GPUs are part of the instance's own price (g5, a2, ml.p4d ...)
    }
    var accelerator = current.accelerator(p.provider(), p.service(), p.region(), line.gpuType());
    if (accelerator.isEmpty()) {
      return Priced.missing(
          "no price known for " + line.gpuType() + " on " + p.service() + " in " + p.region());
    }
    var gpuUnit = accelerator.get().usdPerHour(p.spot());
    if (gpuUnit == null) {
      return Priced.missing("no spot price known for " + line.gpuType() + " in " + p.region());
    }
    var sum = priced.price().usdPerHour().add(gpuUnit.multiply(BigDecimal.valueOf(line.gpus())));
    return Priced.of(
        new Price(
            sum,
            priced.price().estimated(),
            priced.price().source() + " + " + accelerator.get().source()));
  }

  private Priced instancePrice(PriceCatalog current, Placement p, String instanceType) {
    var row = current.instance(p.provider(), p.service(), p.region(), instanceType);
    if (row.isPresent()) {
      var usd = row.get().usdPerHour(p.spot());
      return usd == null
          ? Priced.missing("no spot price known for " + instanceType + " in " + p.region())
          : Priced.of(new Price(usd, false, row.get().source()));
    }
    var vmService = VM_SERVICE.get(p.service());
    if (vmService == null || managedPremiumPct == null || p.spot()) {
      return Priced.missing(
          "no price known for " + instanceType + " on " + p.service() + " in " + p.region());
    }
    var vm = current.instance(p.provider(), vmService, p.region(), withoutMlPrefix(instanceType));
    if (vm.isEmpty()) {
      return Priced.missing(
          "no price known for " + instanceType + " on " + p.service() + " in " + p.region());
    }
    var factor = BigDecimal.ONE.add(managedPremiumPct.movePointLeft(2));
    return Priced.of(
        new Price(
            vm.get().onDemandUsdPerHour().multiply(factor),
            true,
            vm.get().source() + " + " + managedPremiumPct.toPlainString() + "% managed premium"));
  }

  private static String vmServiceOr(String service) {
    return VM_SERVICE.getOrDefault(service, service);
  }

  private static String vmType(Placement p, PlacementLine line) {
    return VM_SERVICE.containsKey(p.service())
        ? withoutMlPrefix(line.instanceType())
        : line.instanceType();
  }

  private static String withoutMlPrefix(String instanceType) {
    return instanceType.startsWith("ml.") ? instanceType.substring(3) : instanceType;
  }
}
