package io.trainyard.backend.azureml;

import io.trainyard.spi.InstanceShape;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.ShapeFit;
import io.trainyard.spi.ShapeFit.Need;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The ways Azure ML could run a job. A command job runs every node on one VM size, one replica per
 * node, so a size fits when it holds the largest replica of any role. Serverless compute proposes
 * every fitting size of the block, on demand ({@code jobTier: Standard}) and as spot ({@code
 * jobTier: Spot}); a cluster proposes its one size, and spot only when the block names a
 * low-priority cluster. Pure apart from reading instance shapes.
 */
final class AzureMlPlacements {
  static final String PROVIDER = "azure";
  static final String SERVICE = "azureml";
  static final String VM_SERVICE = "vm";

  private static final ShapeFit.Words WORDS =
      new ShapeFit.Words("VM size", "sizes", "node", "", "vmSizes");

  private final AzureMlConfig config;
  private final InstanceShapes shapes;
  private final AzureMlSpecChecks checks;

  AzureMlPlacements(AzureMlConfig config, InstanceShapes shapes) {
    this.config = config;
    this.shapes = shapes;
    this.checks = new AzureMlSpecChecks(config);
  }

  Proposals propose(JobSpec spec) {
    var reasons = new ArrayList<>(checks.reasonsAgainst(spec));
    var need = Need.of(spec.roleSpecs());
    if (need.gpuTypes().size() > 1) {
      reasons.add(
          "roles need different GPU types ("
              + String.join(", ", need.gpuTypes())
              + "), and an Azure ML job runs every node on one VM size");
    }
    var spot = spec.effectivePlacement().effectiveSpot();
    if (spot == SpotPolicy.REQUIRED
        && !config.serverless()
        && config.lowPriorityCompute() == null) {
      reasons.add(
          "the job requires spot, and backend "
              + config.id()
              + " has no low-priority cluster (lowPriorityCompute) besides "
              + config.compute());
    }
    if (!reasons.isEmpty()) {
      return new Proposals(List.of(), reasons.stream().map(this::rejection).toList());
    }
    var fitting = ShapeFit.fitting(need, known());
    if (fitting.isEmpty()) {
      return new Proposals(List.of(), List.of(rejection(whyNothingFits(need))));
    }
    var spotPossible = config.serverless() || config.lowPriorityCompute() != null;
    var placements = new ArrayList<Placement>();
    for (var shape : fitting) {
      if (spot != SpotPolicy.REQUIRED) {
        placements.add(placement(spec, shape, false, need));
      }
      if (spot != SpotPolicy.NEVER && spotPossible) {
        placements.add(placement(spec, shape, true, need));
      }
    }
    return new Proposals(placements, List.of());
  }

  List<String> reasonsAgainst(JobSpec spec) {
    return checks.reasonsAgainst(spec);
  }

  private Placement placement(JobSpec spec, InstanceShape shape, boolean spot, Need need) {
    var roles = spec.roleSpecs().stream().map(RoleSpec::name).toList();
    var topology = AzureMlTopology.of(spec);
    var line =
        new PlacementLine(
            roles, shape.instanceType(), topology.instanceCount(), shape.gpuType(), shape.gpus());
    return new Placement(
        config.id(),
        PROVIDER,
        SERVICE,
        config.region(),
        spot,
        List.of(line),
        null,
        null,
        null,
        notes(spec, shape, spot, need));
  }

  private List<String> notes(JobSpec spec, InstanceShape shape, boolean spot, Need need) {
    var notes = new ArrayList<String>();
    var smaller =
        spec.roleSpecs().stream()
            .filter(r -> r.resources().gpuCount() < need.gpus())
            .map(RoleSpec::name)
            .toList();
    if (!smaller.isEmpty() && spec.roleSpecs().size() > 1) {
      notes.add(
          String.join(", ", smaller)
              + " also run on "
              + shape.instanceType()
              + ": an Azure ML job uses one VM size for every node");
    }
    if (spec.framework() == io.trainyard.spi.spec.Framework.MPI) {
      notes.add("the launcher role is Azure ML's own mpirun on the first node");
    }
    var secretNames = new LinkedHashSet<String>();
    spec.roleSpecs().forEach(r -> secretNames.addAll(r.secretEnv().keySet()));
    if (!secretNames.isEmpty()) {
      notes.add(
          "secretEnv reaches the job as the Key Vault secret URI in <NAME>_KEYVAULT_SECRET_URI ("
              + String.join(", ", secretNames)
              + "); the job's identity reads the value");
    }
    if (spec.elastic() != null) {
      notes.add("elastic bounds are not used: Azure ML runs the replicas asked for");
    }
    if (!spec.deepspeed().isEmpty()) {
      notes.add("spec.deepspeed is not passed to Azure ML: ship the config in the image");
    }
    notes.addAll(AzureMlJobMapper.leftOut(spec));
    if (spot) {
      notes.add(
          config.serverless()
              ? "spot: serverless job tier Spot; Azure may preempt it"
              : "spot: low-priority cluster " + config.lowPriorityCompute());
      if (spec.checkpoint() == null) {
        notes.add("spot without spec.checkpoint restarts from scratch when preempted");
      }
    }
    return notes;
  }

  private String whyNothingFits(Need need) {
    return ShapeFit.whyNothingFits(config.id(), need, known(), unknownSizes(), WORDS);
  }

  private List<InstanceShape> known() {
    return config.vmSizes().stream().map(this::shapeOf).flatMap(Optional::stream).toList();
  }

  private List<String> unknownSizes() {
    return config.vmSizes().stream()
        .filter(t -> shapeOf(t).isEmpty())
        .map(AzureMlVmSize::size)
        .toList();
  }

  /** The declared shape, else this module's size table, else the price catalog's VM row. */
  Optional<InstanceShape> shapeOf(AzureMlVmSize size) {
    var declared = size.declaredShape();
    if (declared != null) {
      return Optional.of(declared);
    }
    return AzureVmSizes.find(size.size())
        .map(AzureVmSizes.Entry::shape)
        .or(() -> shapes.find(PROVIDER, VM_SERVICE, config.region(), size.size()));
  }

  /**
   * Every rejection here compares the spec with this backend's configuration (instance types,
   * frameworks, fields), which waiting does not change: {@code NEVER}. Capacity and quota refusals
   * come from the service at submit ({@code CapacityUnavailable}) and requeue the job.
   */
  private Rejection rejection(String reason) {
    return new Rejection(config.id(), reason);
  }
}
