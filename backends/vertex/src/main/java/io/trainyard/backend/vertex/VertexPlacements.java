package io.trainyard.backend.vertex;

import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.WaitingAhead;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The ways Vertex could run a job. Each role is its own worker pool, so each gets the smallest
 * machine type that holds one of its replicas (CPU-only roles only CPU machines); one placement on
 * demand and one on Spot VMs when the job allows spot. Pure apart from reading instance shapes.
 */
final class VertexPlacements {
  static final String PROVIDER = "gcp";
  static final String SERVICE = "vertex";

  private static final Comparator<Machine> SMALLEST_FIRST =
      Comparator.comparingInt(Machine::gpus)
          .thenComparingDouble(Machine::vcpus)
          .thenComparingDouble(Machine::memoryGiB)
          .thenComparing(Machine::machineType);

  private final VertexConfig config;
  private final InstanceShapes shapes;
  private final VertexSpecChecks checks;

  /** A machine type with its resolved shape and accelerators. */
  record Machine(
      String machineType,
      double vcpus,
      double memoryGiB,
      String gpuType,
      int gpus,
      String acceleratorType) {}

  VertexPlacements(VertexConfig config, InstanceShapes shapes) {
    this.config = config;
    this.shapes = shapes;
    this.checks = new VertexSpecChecks(config);
  }

  Proposals propose(JobSpec spec) {
    var reasons = new ArrayList<>(checks.reasonsAgainst(spec));
    var lines = new ArrayList<PlacementLine>();
    for (var role : spec.roleSpecs()) {
      var machine = smallestFit(role);
      if (machine.isEmpty()) {
        reasons.add(whyNothingFits(role));
      } else {
        var m = machine.get();
        lines.add(
            new PlacementLine(
                List.of(role.name()), m.machineType(), role.replicas(), m.gpuType(), m.gpus()));
      }
    }
    if (!reasons.isEmpty()) {
      return new Proposals(
          List.of(),
          // Machine types, accelerators and fields against this configuration: waiting changes
          // none of them (NEVER). Quota refusals come at submit and requeue the job.
          reasons.stream().map(r -> new Rejection(config.id(), r, Rejection.Kind.NEVER)).toList());
    }
    var spot = spec.effectivePlacement().effectiveSpot();
    var placements = new ArrayList<Placement>();
    if (spot != SpotPolicy.REQUIRED) {
      placements.add(placement(spec, lines, false));
    }
    if (spot != SpotPolicy.NEVER) {
      placements.add(placement(spec, lines, true));
    }
    return new Proposals(placements, List.of());
  }

  List<String> reasonsAgainst(JobSpec spec) {
    return checks.reasonsAgainst(spec);
  }

  /** The machine entry a placement line names, to find its Vertex accelerator again. */
  Optional<Machine> machine(String machineType, String gpuType) {
    return machines().stream()
        .filter(m -> m.machineType().equals(machineType))
        .filter(m -> gpuType == null || gpuType.equalsIgnoreCase(m.gpuType()))
        .findFirst();
  }

  private Placement placement(JobSpec spec, List<PlacementLine> lines, boolean spot) {
    return new Placement(
        config.id(),
        PROVIDER,
        SERVICE,
        config.region(),
        spot,
        lines,
        null,
        null,
        null,
        notes(spec),
        WaitingAhead.unknown(
            "Vertex AI's API tells no queue ahead of a new custom job: a job's state (JOB_STATE_QUEUED, JOB_STATE_PENDING) is its own, not a place in a line"));
  }

  private static List<String> notes(JobSpec spec) {
    var notes = new ArrayList<String>();
    var secretNames = new LinkedHashSet<String>();
    spec.roleSpecs().forEach(r -> secretNames.addAll(r.secretEnv().keySet()));
    if (!secretNames.isEmpty()) {
      notes.add(
          "secretEnv reaches the container as the Secret Manager version in"
              + " <NAME>_SECRET_VERSION ("
              + String.join(", ", secretNames)
              + "); the job's service account reads the value");
    }
    if (!spec.inputs().isEmpty()) {
      notes.add("inputs arrive as URIs in TRAINYARD_INPUT_<NAME>: Vertex mounts no data");
    }
    if (spec.elastic() != null) {
      notes.add(
          "elastic bounds"
              + (spec.elastic().metrics() != null ? " and metrics" : "")
              + (spec.elastic().hasOwnRendezvous() ? " and rendezvous store" : "")
              + " are not used: Vertex runs the replicas asked for");
    }
    if (!spec.deepspeed().isEmpty()) {
      notes.add("spec.deepspeed is not passed to Vertex: ship the config in the image");
    }
    // Trainyard's own labels: job id, attempt, spec hash, team, name.
    notes.addAll(VertexUserLabels.of(spec, 5).leftOut());
    return notes;
  }

  private Optional<Machine> smallestFit(RoleSpec role) {
    return machines().stream().filter(m -> fits(role, m)).min(SMALLEST_FIRST);
  }

  /** CPU-only roles are not offered GPU machines: nobody wants to pay for idle GPUs. */
  private static boolean fits(RoleSpec role, Machine m) {
    var r = role.resources();
    var gpusFit =
        r.gpuCount() == 0
            ? m.gpus() == 0
            : m.gpus() >= r.gpuCount()
                && (r.gpuType() == null || r.gpuType().equalsIgnoreCase(m.gpuType()));
    return gpusFit && m.vcpus() >= r.cpuCount() && m.memoryGiB() >= memoryGiB(role);
  }

  private String whyNothingFits(RoleSpec role) {
    var r = role.resources();
    var need = new ArrayList<String>();
    if (r.gpuCount() > 0) {
      need.add(r.gpuCount() + " " + (r.gpuType() == null ? "" : r.gpuType() + " ") + "GPUs");
    }
    if (r.cpuCount() > 0) {
      need.add(fmt(r.cpuCount()) + " vCPUs");
    }
    if (r.memory() != null) {
      need.add(fmt(memoryGiB(role)) + " GiB");
    }
    var known =
        machines().stream()
            .sorted(SMALLEST_FIRST)
            .map(
                m ->
                    m.machineType()
                        + " "
                        + fmt(m.vcpus())
                        + " vCPUs "
                        + fmt(m.memoryGiB())
                        + " GiB"
                        + (m.gpus() > 0 ? " " + m.gpus() + "x " + m.gpuType() : ""))
            .toList();
    var unknown = unknownMachines();
    return "no Vertex machine type of "
        + config.id()
        + " fits a "
        + role.name()
        + " replica ("
        + (need.isEmpty() ? "no GPUs" : String.join(", ", need))
        + "); machines: "
        + (known.isEmpty() ? "none" : String.join(", ", known))
        + (unknown.isEmpty()
            ? ""
            : "; no shape known for "
                + String.join(", ", unknown)
                + " in "
                + config.region()
                + ": declare vcpus and memoryGiB in machineTypes");
  }

  private List<Machine> machines() {
    return config.machineTypes().stream().map(this::resolve).flatMap(Optional::stream).toList();
  }

  private List<String> unknownMachines() {
    return config.machineTypes().stream()
        .filter(t -> resolve(t).isEmpty())
        .map(VertexMachineType::machineType)
        .toList();
  }

  /**
   * Declared vCPUs and memory, else the catalog's Vertex row, else its Compute Engine row of the
   * same machine; declared accelerators, else the machine's built-in GPUs (a2, a3, g2).
   */
  private Optional<Machine> resolve(VertexMachineType entry) {
    var name = entry.machineType();
    if (entry.vcpus() != null) {
      return Optional.of(withGpus(entry, entry.vcpus(), entry.memoryGiB(), null, 0));
    }
    return shapes
        .find(PROVIDER, SERVICE, config.region(), name)
        .or(() -> shapes.find(PROVIDER, "gce", config.region(), name))
        .map(s -> withGpus(entry, s.vcpus(), s.memoryGiB(), s.gpuType(), s.gpus()));
  }

  private static Machine withGpus(
      VertexMachineType entry, double vcpus, double memory, String builtInType, int builtIn) {
    if (entry.declaresGpus()) {
      return new Machine(
          entry.machineType(),
          vcpus,
          memory,
          entry.gpuType().toLowerCase(Locale.ROOT),
          entry.gpuCount(),
          entry.acceleratorType());
    }
    var accelerator = VertexMachineType.acceleratorOf(builtInType).orElse(null);
    return new Machine(entry.machineType(), vcpus, memory, builtInType, builtIn, accelerator);
  }

  private static double memoryGiB(RoleSpec role) {
    var memory = role.resources().memory();
    return memory == null ? 0 : Quantities.gib(memory);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
