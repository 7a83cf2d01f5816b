package io.trainyard.spi;

import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.RoleSpec;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * One machine size for every node of a job, as managed platforms that run all nodes alike need it
 * (SageMaker, Azure ML): what the largest replica of any role needs, which shapes fit, and — when
 * none does — why, in words the user can act on. Pure and thread-safe.
 */
public final class ShapeFit {
  /** Fewest GPUs, then vCPUs, then memory: the first fitting shape is the cheapest guess. */
  public static final Comparator<InstanceShape> SMALLEST_FIRST =
      Comparator.comparingInt(InstanceShape::gpus)
          .thenComparingDouble(InstanceShape::vcpus)
          .thenComparingDouble(InstanceShape::memoryGiB)
          .thenComparing(InstanceShape::instanceType);

  private ShapeFit() {}

  /**
   * How a backend names its sizes in messages.
   *
   * @param size one size, e.g. {@code ml.* type} or {@code VM size}
   * @param sizes the list's label, e.g. {@code types} or {@code sizes}
   * @param node what one replica runs on, e.g. {@code instance} or {@code node}
   * @param where added after the unknown sizes, e.g. {@code " in us-east-1"}, or empty
   * @param field the configuration field where shapes can be declared, e.g. {@code vmSizes}
   */
  public record Words(String size, String sizes, String node, String where, String field) {}

  /** What the largest replica of any role needs, since every node has the same size. */
  public record Need(int gpus, List<String> gpuTypes, double cpus, double memoryGiB) {
    public static Need of(List<RoleSpec> roles) {
      var types = new LinkedHashSet<String>();
      int gpus = 0;
      double cpus = 0;
      double memory = 0;
      for (var role : roles) {
        var r = role.resources();
        gpus = Math.max(gpus, r.gpuCount());
        cpus = Math.max(cpus, r.cpuCount());
        memory = Math.max(memory, r.memory() == null ? 0 : Quantities.gib(r.memory()));
        if (r.gpuCount() > 0 && r.gpuType() != null) {
          types.add(r.gpuType().toLowerCase(Locale.ROOT));
        }
      }
      return new Need(gpus, List.copyOf(types), cpus, memory);
    }

    public boolean gpuTypeMatches(InstanceShape shape) {
      return shape.gpus() > 0
          && (gpuTypes.isEmpty() || gpuTypes.get(0).equalsIgnoreCase(shape.gpuType()));
    }

    /** CPU-only jobs are not offered GPU shapes: nobody wants to pay for idle GPUs. */
    public boolean fits(InstanceShape shape) {
      var gpusFit = gpus == 0 ? shape.gpus() == 0 : gpuTypeMatches(shape) && shape.gpus() >= gpus;
      return gpusFit && shape.vcpus() >= cpus && shape.memoryGiB() >= memoryGiB;
    }

    public String gpuWords() {
      return gpuTypes.isEmpty() ? "GPUs" : gpuTypes.get(0) + " GPUs";
    }
  }

  /** The shapes that fit, smallest first. */
  public static List<InstanceShape> fitting(Need need, List<InstanceShape> known) {
    return known.stream().filter(need::fits).sorted(SMALLEST_FIRST).toList();
  }

  /**
   * Why none of {@code known} fits {@code need}: no shape with the GPU type, too few GPUs, or too
   * few vCPUs or memory — listing the shapes there are, and the sizes whose shape is unknown.
   */
  public static String whyNothingFits(
      String backendId, Need need, List<InstanceShape> known, List<String> unknown, Words words) {
    var suffix =
        unknown.isEmpty()
            ? ""
            : " (no shape known for "
                + String.join(", ", unknown)
                + words.where()
                + ": declare vcpus and memoryGiB in "
                + words.field()
                + ")";
    if (need.gpus() > 0) {
      var withType = known.stream().filter(need::gpuTypeMatches).toList();
      if (withType.isEmpty()) {
        return "no "
            + words.size()
            + " of "
            + backendId
            + " has "
            + need.gpuWords()
            + " ("
            + words.sizes()
            + ": "
            + describe(known.stream().filter(s -> s.gpus() > 0).toList())
            + ")"
            + suffix;
      }
      var most = withType.stream().max(Comparator.comparingInt(InstanceShape::gpus)).get();
      if (most.gpus() < need.gpus()) {
        return "no "
            + words.size()
            + " has "
            + need.gpus()
            + " "
            + need.gpuWords()
            + " per "
            + words.node()
            + "; the most is "
            + most.gpus()
            + " ("
            + most.instanceType()
            + ")"
            + suffix;
      }
    }
    var kind = need.gpus() > 0 ? "with those GPUs" : "without GPUs";
    var size = number(need.cpus()) + " vCPUs";
    if (need.memoryGiB() > 0) {
      size += " and " + number(need.memoryGiB()) + " GiB";
    }
    return "no "
        + words.size()
        + " "
        + kind
        + " has "
        + size
        + " for one replica ("
        + words.sizes()
        + ": "
        + describe(known.stream().filter(s -> (s.gpus() > 0) == (need.gpus() > 0)).toList())
        + ")"
        + suffix;
  }

  /** {@code m5.2xlarge 8 vCPUs 32 GiB, g5.xlarge 4 vCPUs 16 GiB 1x nvidia-a10g}, smallest first. */
  public static String describe(List<InstanceShape> shapes) {
    if (shapes.isEmpty()) {
      return "none";
    }
    return String.join(
        ", ",
        shapes.stream()
            .sorted(SMALLEST_FIRST)
            .map(
                s ->
                    s.instanceType()
                        + " "
                        + number(s.vcpus())
                        + " vCPUs "
                        + number(s.memoryGiB())
                        + " GiB"
                        + (s.gpus() > 0 ? " " + s.gpus() + "x " + s.gpuType() : ""))
            .toList());
  }

  /** {@code 8}, {@code 0.5}: a whole number without its fraction. */
  public static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
