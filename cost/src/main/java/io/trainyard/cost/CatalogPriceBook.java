package io.trainyard.cost;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.pricing.ManagedService;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Prices placements from the catalog, line by line: instances × the instance's price (spot or
 * on-demand), plus attached accelerators where the host's row has no GPUs of its own (GCE n1 + T4),
 * plus the job's share of a cluster fee. An operator's price for the whole placement wins. Where a
 * managed service (as the backend modules declare them, {@link ManagedService}) has no row, the
 * matching VM's price plus the service's published surcharge is used, or plus the operator's
 * managed premium where none is published — and then marked estimated. A managed service's spot
 * (SageMaker managed spot, Vertex AI Spot VMs) has no published per-instance price: the VM's spot
 * price times the service's on-demand ratio to the VM stands in, estimated, naming both rows'
 * sources. Thread-safe; {@link #replace} swaps in a refreshed catalog.
 */
public final class CatalogPriceBook implements PriceBook {
  private final AtomicReference<PriceCatalog> catalog;
  private final Map<String, ManagedService> managedServices = new HashMap<>();
  private final BigDecimal managedPremiumPct;

  /**
   * @param managedServices the managed services priced as VMs where the catalog lacks their rows
   * @param managedPremiumPct added to a VM price to estimate a managed instance whose service
   *     publishes no surcharge; null to refuse to estimate
   */
  public CatalogPriceBook(
      PriceCatalog catalog, List<ManagedService> managedServices, BigDecimal managedPremiumPct) {
    this.catalog = new AtomicReference<>(Objects.requireNonNull(catalog, "catalog"));
    for (var service : managedServices) {
      this.managedServices.put(key(service.provider(), service.service()), service);
    }
    this.managedPremiumPct = managedPremiumPct;
  }

  /** A price book for the catalog alone: no managed service is priced from its VMs. */
  public CatalogPriceBook(PriceCatalog catalog) {
    this(catalog, List.of(), null);
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
    var managed = managed(p);
    var host =
        managed == null
            ? current.instance(p.provider(), p.service(), p.region(), line.instanceType())
            : current.instance(
                p.provider(), managed.vmService(), p.region(), managed.vmType(line.instanceType()));
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
      if (usd != null) {
        return Priced.of(new Price(usd, false, row.get().source()));
      }
      var managed = managed(p);
      var fromVm = managed == null ? null : managedSpot(current, p, managed, row.get());
      return fromVm != null
          ? fromVm
          : Priced.missing("no spot price known for " + instanceType + " in " + p.region());
    }
    var missing =
        Priced.missing(
            "no price known for " + instanceType + " on " + p.service() + " in " + p.region());
    var managed = managed(p);
    if (managed == null) {
      return missing;
    }
    var vm =
        current.instance(
            p.provider(), managed.vmService(), p.region(), managed.vmType(instanceType));
    if (vm.isEmpty()) {
      return missing;
    }
    if (managed.surchargePct() == null) {
      if (managedPremiumPct == null) {
        return missing;
      }
      var vmPrice = vm.get().usdPerHour(p.spot());
      if (vmPrice == null) {
        return Priced.missing("no spot price known for " + instanceType + " in " + p.region());
      }
      return Priced.of(
          new Price(
              vmPrice.multiply(factor(managedPremiumPct)),
              true,
              vm.get().source()
                  + (p.spot() ? " (the VM's spot price)" : "")
                  + " + "
                  + managedPremiumPct.toPlainString()
                  + "% managed premium"));
    }
    var vmUsd = vm.get().usdPerHour(p.spot());
    if (vmUsd == null) {
      return Priced.missing("no spot price known for " + instanceType + " in " + p.region());
    }
    var surcharge =
        managed.surchargePct().signum() == 0
            ? p.service() + " adds no surcharge to compute"
            : p.service() + " adds " + managed.surchargePct().toPlainString() + "% to compute";
    // The VM's spot price stands in for the service's own spot (low-priority) price: estimated.
    return Priced.of(
        new Price(
            vmUsd.multiply(factor(managed.surchargePct())),
            p.spot(),
            vm.get().source()
                + (p.spot() ? " (the VM's spot price)" : "")
                + " + "
                + surcharge
                + " ("
                + managed.surchargeSource()
                + ")"));
  }

  /**
   * A managed service's spot price where it publishes none per instance (SageMaker managed spot,
   * Vertex AI Spot VMs): the VM's spot price times the service's own on-demand surcharge ratio
   * (managed on-demand row / VM on-demand row, both from the catalog) — the managed discount
   * follows the VM's spot market. Estimated; null when the VM has no spot or on-demand row.
   */
  private static Priced managedSpot(
      PriceCatalog current, Placement p, ManagedService managed, PriceRow own) {
    var vm =
        current.instance(
            p.provider(), managed.vmService(), p.region(), managed.vmType(own.instanceType()));
    if (vm.isEmpty()
        || vm.get().spotUsdPerHour() == null
        || vm.get().onDemandUsdPerHour().signum() <= 0) {
      return null;
    }
    var ratio =
        own.onDemandUsdPerHour().divide(vm.get().onDemandUsdPerHour(), 6, RoundingMode.HALF_UP);
    return Priced.of(
        new Price(
            vm.get().spotUsdPerHour().multiply(ratio),
            true,
            managed.vmService()
                + " spot price of "
                + vm.get().instanceType()
                + " $"
                + vm.get().spotUsdPerHour().stripTrailingZeros().toPlainString()
                + "/h ("
                + vm.get().source()
                + ") × "
                + p.service()
                + "/"
                + managed.vmService()
                + " on-demand ratio "
                + own.onDemandUsdPerHour().stripTrailingZeros().toPlainString()
                + "/"
                + vm.get().onDemandUsdPerHour().stripTrailingZeros().toPlainString()
                + " ("
                + own.source()
                + "); estimated: "
                + p.service()
                + " publishes no per-instance spot price"));
  }

  private ManagedService managed(Placement p) {
    return managedServices.get(key(p.provider(), p.service()));
  }

  private static BigDecimal factor(BigDecimal pct) {
    return BigDecimal.ONE.add(pct.movePointLeft(2));
  }

  private static String key(String provider, String service) {
    return provider + "/" + service;
  }
}
