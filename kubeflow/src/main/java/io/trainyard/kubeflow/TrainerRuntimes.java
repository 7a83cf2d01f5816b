package io.trainyard.kubeflow;

import io.trainyard.spi.spec.Framework;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The {@code ClusterTrainingRuntime}s Kubeflow Trainer ships, and what each runs, plus the runtimes
 * a cluster declares. A TrainJob names its runtime in {@code spec.runtimeRef.name}; the runtime,
 * not the TrainJob, decides the framework. Immutable and thread-safe.
 *
 * <p>The built-in runtimes are those of {@code kubeflow/trainer} {@code manifests/base/runtimes/}
 * at commit {@code 8c0f5059bd51ec3ba6d6a6a7b2e1471de7bc13b3}, each with its {@code
 * trainer.kubeflow.org/framework} label: {@code torch-distributed} and {@code
 * torch-distributed-with-cache} ({@code torch}, {@code mlPolicy.torch}), {@code
 * deepspeed-distributed} ({@code deepspeed}) and {@code mlx-distributed} ({@code mlx}), both {@code
 * mlPolicy.mpi} with the launcher run as a node, {@code xgboost-distributed} ({@code xgboost}),
 * {@code jax-distributed} ({@code jax}), and the torchtune runtimes {@code torchtune-llama3.2-1b},
 * {@code torchtune-llama3.2-3b}, {@code torchtune-qwen2.5-1.5b} ({@code torchtune}: torch running
 * the runtime's own {@code tune run} command and model initializer).
 *
 * <p>Each built-in runtime's trainer image at that commit is known too: a TrainJob that names no
 * {@code trainer.image} (as most of Trainer's own examples) runs that image.
 */
public final class TrainerRuntimes {
  /**
   * A runtime Trainyard knows.
   *
   * @param framework the Trainyard framework it runs; null when Trainyard has none for it
   * @param trainerLabel the runtime's {@code trainer.kubeflow.org/framework} label
   * @param image the image of its trainer ({@code node}) container; null when not known
   */
  public record Runtime(String name, Framework framework, String trainerLabel, String image) {}

  /** Where Trainer publishes its runtimes' images. */
  private static final String GHCR = "ghcr.io/kubeflow/trainer/";

  private static final Map<String, Runtime> BUILT_IN = shipped();

  private final Map<String, Runtime> runtimes;

  private TrainerRuntimes(Map<String, Runtime> runtimes) {
    this.runtimes = runtimes;
  }

  /** Trainer's built-in runtimes only. */
  public static TrainerRuntimes builtIn() {
    return new TrainerRuntimes(BUILT_IN);
  }

  /**
   * The built-in runtimes and {@code declared} ones (a cluster's {@code runtimes: {name:
   * framework}}); a declared name replaces a built-in one of the same name.
   */
  public static TrainerRuntimes with(Map<String, Framework> declared) {
    var all = new LinkedHashMap<>(BUILT_IN);
    declared.forEach((name, framework) -> all.put(name, new Runtime(name, framework, null, null)));
    return new TrainerRuntimes(Map.copyOf(all));
  }

  public Optional<Runtime> find(String name) {
    return Optional.ofNullable(runtimes.get(name));
  }

  /** Every known name, sorted, for messages. */
  public String names() {
    return String.join(", ", new TreeSet<>(runtimes.keySet()));
  }

  /**
   * The built-in runtime a job of {@code framework} runs on when it names none: {@code
   * xgboost-distributed}, {@code jax-distributed}; empty for the others (a torch job runs on its
   * cluster's {@code trainerRuntime}).
   */
  public static Optional<String> defaultFor(Framework framework) {
    return switch (framework) {
      case XGBOOST -> Optional.of("xgboost-distributed");
      case JAX -> Optional.of("jax-distributed");
      default -> Optional.empty();
    };
  }

  /** The image of built-in runtime {@code name}'s trainer; empty for any other name. */
  static Optional<String> builtInImage(String name) {
    var runtime = BUILT_IN.get(name);
    return runtime == null ? Optional.empty() : Optional.ofNullable(runtime.image());
  }

  /** Whether {@code name} is one of Trainer's own runtimes. */
  public static boolean isBuiltIn(String name) {
    return BUILT_IN.containsKey(name);
  }

  private static Map<String, Runtime> shipped() {
    var m = new LinkedHashMap<String, Runtime>();
    var torch = "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime";
    put(m, "torch-distributed", Framework.PYTORCH, "torch", torch);
    put(m, "torch-distributed-with-cache", Framework.PYTORCH, "torch", torch);
    put(m, "deepspeed-distributed", Framework.MPI, "deepspeed", GHCR + "deepspeed-runtime");
    put(m, "mlx-distributed", Framework.MPI, "mlx", GHCR + "mlx-runtime");
    put(m, "xgboost-distributed", Framework.XGBOOST, "xgboost", GHCR + "xgboost-runtime");
    put(m, "jax-distributed", Framework.JAX, "jax", "nvcr.io/nvidia/jax:25.10-py3");
    var tune = GHCR + "torchtune-trainer";
    put(m, "torchtune-llama3.2-1b", null, "torchtune", tune);
    put(m, "torchtune-llama3.2-3b", null, "torchtune", tune);
    put(m, "torchtune-qwen2.5-1.5b", null, "torchtune", tune);
    return Map.copyOf(m);
  }

  private static void put(
      Map<String, Runtime> m, String name, Framework f, String label, String image) {
    m.put(name, new Runtime(name, f, label, image));
  }
}
