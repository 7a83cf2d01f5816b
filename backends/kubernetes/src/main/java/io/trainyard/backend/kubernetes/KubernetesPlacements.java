package io.trainyard.backend.kubernetes;

import io.trainyard.backend.kubernetes.NodePacking.Replica;
import io.trainyard.kubeflow.KubeflowWriter;
import io.trainyard.kubeflow.TrainJobWriter;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The ways a cluster could run a job: each role's replicas bin-packed onto the nodes of a pool they
 * fit ({@link NodePacking}) at the node's allocatable size ({@link PoolShape}, {@link
 * NodeReserve}), one placement per feasible mix of pools, one line per pool and role group with the
 * pool's name and its node count; the notes give each pool's allocatable against its instance size.
 * Pure apart from reading instance shapes.
 *
 * <p>Rules: a GPU role goes only to pools with enough GPUs of its type (no type = any GPU); a
 * CPU-only role goes to CPU pools when one fits, else shares GPU nodes (so also when the CPU pool
 * is of another price basis than the GPU pools that have room for the job); the spec's spot policy
 * keeps or drops spot pools. With flavor {@code trainer-v2} every role goes to the same pool (a
 * TrainJob's nodes share one pod template), and the spec must be one {@link
 * TrainJobWriter#unsupported} accepts. A placement has one price basis and one spot flag, so its
 * pools are all operator-priced or all catalog-priced, and all spot or all on-demand. The cluster
 * fee is shared by node: {@code feeUsdPerHour × job nodes ÷ Σ maxNodes}.
 */
final class KubernetesPlacements {
  /** Beyond this many pool mixes the rest are not proposed: quotes must stay cheap. */
  static final int MAX_MIXES = 64;

  private final ClusterSettings cluster;
  private final InstanceShapes shapes;

  KubernetesPlacements(ClusterSettings cluster, InstanceShapes shapes) {
    this.cluster = cluster;
    this.shapes = shapes;
  }

  Proposals propose(JobSpec spec) {
    return propose(spec, null);
  }

  /**
   * @param pending the cluster's waiting pods, read for this quote; null when not read (the
   *     placements then say nothing of what waits ahead)
   */
  Proposals propose(JobSpec spec, PendingPods.Snapshot pending) {
    var unsupported =
        cluster.rendersTrainJobs()
            ? TrainJobWriter.unsupported(spec, cluster.effectivePodPatches())
            : KubeflowWriter.unsupported(spec, cluster.mpiOperator());
    var mpi = spec.kubernetes() == null ? null : spec.kubernetes().mpi();
    if (cluster.rendersTrainJobs() && mpi != null && !mpi.isDefault()) {
      // A TrainJob has no field for them: only the MPI Operator v2's MPIJob does.
      unsupported = new ArrayList<>(unsupported);
      for (var field : mpi.nonDefaultFields()) {
        unsupported.add(
            new FieldError(
                "spec.kubernetes.mpi." + field,
                "is an MPI Operator v2 setting, which a TrainJob cannot say; run it on a cluster"
                    + " with mpiOperator: mpi-operator-v2"));
      }
    }
    if (!unsupported.isEmpty()) {
      return rejected(unsupported.stream().map(e -> e.field() + ": " + e.message()).toList());
    }
    if (cluster.rendersTrainJobs()) {
      var runtime = runtimeProblem(spec);
      if (runtime != null) {
        return rejected(List.of(runtime));
      }
    }
    var pools = new PoolCatalog(cluster, shapes, spec.effectivePlacement().effectiveSpot());
    var roles = pricedRoles(spec);
    var reachable = new HashMap<String, List<PoolShape>>();
    for (var role : roles) {
      var selection = NodeSelection.of(spec, role);
      var selectable = new ArrayList<PoolShape>();
      var conflicts = new ArrayList<String>();
      for (var shape : pools.allowed()) {
        var conflict = selection.conflict(NodeLabels.of(shape.pool(), cluster));
        if (conflict == null) {
          selectable.add(shape);
        } else {
          conflicts.add("pool " + shape.pool().name() + ": " + conflict);
        }
      }
      if (selectable.isEmpty() && !pools.allowed().isEmpty()) {
        return rejected(
            List.of(
                "the "
                    + role.name()
                    + " pods' node selection matches no node pool of "
                    + cluster.backendId()
                    + " — "
                    + String.join("; ", conflicts)));
      }
      reachable.put(role.name(), selectable);
      if (candidates(role, selectable).isEmpty()) {
        return rejected(List.of(pools.whyNoPool(role)));
      }
    }
    var allowed = pools.allowed();
    BiFunction<RoleSpec, List<PoolShape>, List<PoolShape>> selected =
        (role, among) -> among.stream().filter(reachable.get(role.name())::contains).toList();
    var placements = new ArrayList<Placement>();
    var reasons = new LinkedHashSet<String>();
    for (var mix : mixesByPriceBasis(roles, allowed, false, selected)) {
      place(spec, roles, mix, pending)
          .ifPresentOrElse(placements::add, () -> reasons.add(tooMany(roles, mix)));
    }
    if (placements.isEmpty()) {
      // Nothing fits with CPU roles kept to the CPU pools (a GPU pool of their basis at its
      // maxNodes, say): let them share the GPU nodes of a basis without a CPU pool rather than
      // refuse a job that can run.
      for (var mix : mixesByPriceBasis(roles, allowed, true, selected)) {
        place(spec, roles, mix, pending).ifPresent(placements::add);
      }
    }
    if (placements.isEmpty() && reasons.isEmpty()) {
      reasons.add(
          "the roles fit only on pools priced differently (spot and on-demand, or operator and"
              + " catalog prices), which one placement cannot mix");
    }
    return placements.isEmpty()
        ? rejected(List.copyOf(reasons))
        : new Proposals(placements, List.of());
  }

  /**
   * The pool mixes worth pricing: one placement has one price basis (all spot or all on-demand, all
   * operator- or all catalog-priced), so the mixes are enumerated within each basis, in the order
   * the pools are configured, {@link #MAX_MIXES} at most in all. A role's candidates are those it
   * fits ({@link #candidates}) over the whole cluster, so a CPU launcher or parameter servers go to
   * a CPU pool when the cluster has one they fit (a basis without one has no mix for the job). With
   * {@code withinBasis} that choice is made within each basis instead: a basis without a CPU pool
   * puts CPU roles on its GPU nodes (the fallback when the strict choice places nothing). Every mix
   * becomes its own placement; the router prices them and picks the cheapest.
   */
  private List<List<PoolShape>> mixesByPriceBasis(
      List<RoleSpec> roles,
      List<PoolShape> allowed,
      boolean withinBasis,
      BiFunction<RoleSpec, List<PoolShape>, List<PoolShape>> selected) {
    var bases = new LinkedHashMap<String, List<PoolShape>>();
    for (var shape : allowed) {
      bases
          .computeIfAbsent(
              shape.pool().isSpot() + "|" + shape.pool().operatorPriced(), k -> new ArrayList<>())
          .add(shape);
    }
    var all = new ArrayList<List<PoolShape>>();
    for (var basis : bases.values()) {
      var candidates = new ArrayList<List<PoolShape>>();
      for (var role : roles) {
        candidates.add(
            withinBasis
                ? candidates(role, selected.apply(role, basis))
                : candidates(role, selected.apply(role, allowed)).stream()
                    .filter(basis::contains)
                    .toList());
      }
      if (candidates.stream().anyMatch(List::isEmpty)) {
        continue;
      }
      var mixes = cluster.rendersTrainJobs() ? onePool(candidates) : mixes(candidates);
      for (var mix : mixes) {
        if (all.size() < MAX_MIXES) {
          all.add(mix);
        }
      }
    }
    return all;
  }

  /**
   * The roles as the cluster may have to run them: an elastic job's workers at {@code
   * elastic.maxReplicas} when that is more than {@code replicas.worker}, since the operator (or the
   * autoscaler of {@code elastic.metrics}) may grow the job to it. Pricing the smaller count would
   * let an elastic job pass a budget or {@code maxHourlyUsd} it can then exceed.
   */
  static List<RoleSpec> pricedRoles(JobSpec spec) {
    var roles = spec.roleSpecs();
    var elastic = spec.elastic();
    if (elastic == null || elastic.maxReplicas() == null) {
      return roles;
    }
    return roles.stream()
        .map(
            r ->
                r.name().equals("worker") && elastic.maxReplicas() > r.replicas()
                    ? new RoleSpec(
                        r.name(),
                        elastic.maxReplicas(),
                        r.image(),
                        r.command(),
                        r.args(),
                        r.env(),
                        r.secretEnv(),
                        r.resources(),
                        r.restartPolicy(),
                        r.kubernetes())
                    : r)
        .toList();
  }

  /**
   * Why this trainer-v2 cluster cannot run the runtime {@code spec} names (kept from a submitted
   * TrainJob), or null when it can.
   */
  private String runtimeProblem(JobSpec spec) {
    var runtime = TrainJobWriter.runtimeOf(spec, cluster.trainerRuntime());
    var framework = cluster.runtimeFramework(runtime).orElse(null);
    var field = "spec.kubernetes.trainJob.runtimeRef.name (the TrainJob's spec.runtimeRef.name)";
    if (framework == null) {
      return field
          + ": "
          + cluster.backendId()
          + " has no runtime '"
          + runtime
          + "': it runs Kubeflow Trainer's built-in runtimes"
          + (cluster.declaredRuntimes().isEmpty()
              ? ""
              : " and " + String.join(", ", cluster.declaredRuntimes().keySet()));
    }
    if (framework != spec.framework()) {
      return field
          + ": on "
          + cluster.backendId()
          + " runtime '"
          + runtime
          + "' runs "
          + framework
          + ", not "
          + spec.framework();
    }
    return null;
  }

  /** Pools a replica of {@code role} fits on; CPU-only roles stay off GPU nodes when they can. */
  static List<PoolShape> candidates(RoleSpec role, List<PoolShape> pools) {
    var replica = Replica.one(role);
    var fitting = pools.stream().filter(s -> gpuMatches(role, s) && replica.fitsOn(s)).toList();
    if (replica.gpus() == 0) {
      var cpuOnly = fitting.stream().filter(s -> !s.hasGpus()).toList();
      if (!cpuOnly.isEmpty()) {
        return cpuOnly;
      }
    }
    return fitting;
  }

  static boolean gpuMatches(RoleSpec role, PoolShape shape) {
    var r = role.resources();
    return r.gpuCount() == 0
        || (shape.hasGpus()
            && (r.gpuType() == null || r.gpuType().equalsIgnoreCase(shape.gpuType())));
  }

  private Optional<Placement> place(
      JobSpec spec, List<RoleSpec> roles, List<PoolShape> mix, PendingPods.Snapshot pending) {
    var groups = groups(roles, mix);
    var lines = new ArrayList<PlacementLine>();
    var operatorUsd = BigDecimal.ZERO;
    int nodes = 0;
    for (var group : groups.entrySet()) {
      var shape = group.getKey();
      var replicas = group.getValue().stream().flatMap(r -> Replica.of(r).stream()).toList();
      var count = NodePacking.nodes(replicas, shape);
      if (count > shape.pool().maxNodes()) {
        return Optional.empty();
      }
      nodes += count;
      var names = group.getValue().stream().map(RoleSpec::name).toList();
      lines.add(
          new PlacementLine(
              names,
              shape.pool().instanceType(),
              count,
              shape.hasGpus() ? shape.gpuType() : null,
              shape.gpus(),
              shape.pool().name()));
      if (shape.pool().operatorPriced()) {
        operatorUsd =
            operatorUsd.add(shape.pool().usdPerNodeHour().multiply(BigDecimal.valueOf(count)));
      }
    }
    var operatorPriced = mix.get(0).pool().operatorPriced();
    return Optional.of(
        new Placement(
            cluster.backendId(),
            cluster.provider(),
            operatorPriced ? "kubernetes" : cluster.catalogService(),
            cluster.region(),
            mix.get(0).pool().isSpot(),
            lines,
            operatorPriced ? operatorUsd : null,
            clusterFee(nodes),
            null,
            notes(spec, groups),
            pending == null
                ? null
                : pending.ahead(
                    groups.keySet().stream().map(PoolShape::pool).distinct().toList(), cluster)));
  }

  private BigDecimal clusterFee(int nodes) {
    var fee = cluster.feeUsdPerHour();
    if (fee == null || fee.signum() == 0) {
      return null;
    }
    return fee.multiply(BigDecimal.valueOf(nodes))
        .divide(BigDecimal.valueOf(cluster.totalMaxNodes()), 6, RoundingMode.HALF_UP)
        .stripTrailingZeros();
  }

  private static LinkedHashMap<PoolShape, List<RoleSpec>> groups(
      List<RoleSpec> roles, List<PoolShape> mix) {
    var groups = new LinkedHashMap<PoolShape, List<RoleSpec>>();
    for (int i = 0; i < roles.size(); i++) {
      groups.computeIfAbsent(mix.get(i), k -> new ArrayList<>()).add(roles.get(i));
    }
    return groups;
  }

  private List<String> notes(JobSpec spec, LinkedHashMap<PoolShape, List<RoleSpec>> groups) {
    var notes = new ArrayList<String>();
    var where = new ArrayList<String>();
    groups.forEach(
        (shape, roles) ->
            where.add(
                String.join(", ", roles.stream().map(RoleSpec::name).toList())
                    + " on pool "
                    + shape.pool().name()));
    notes.add(String.join("; ", where));
    // What the nodes count was packed against: the instance's size is not what pods get.
    groups.keySet().forEach(shape -> notes.add(shape.allocatableNote()));
    if (!spec.deepspeed().isEmpty()) {
      notes.add(
          "spec.deepspeed is mounted at "
              + KubeflowJobRenderer.DEEPSPEED_FILE
              + " (DEEPSPEED_CONFIG)");
    }
    if (spec.elastic() != null && spec.elastic().maxReplicas() != null) {
      notes.add(
          "priced at elastic.maxReplicas ("
              + spec.elastic().maxReplicas()
              + " workers), the most the job may grow to"
              + (spec.elastic().metrics() != null
                  ? " (its autoscaler scales on elastic.metrics)"
                  : ""));
    }
    var queue = spec.jobLabels().get(KubeflowJobRenderer.KUEUE_QUEUE_LABEL);
    if (queue != null && cluster.kueueQueue() != null && !queue.equals(cluster.kueueQueue())) {
      notes.add(
          "spec.kubernetes.jobLabels."
              + KubeflowJobRenderer.KUEUE_QUEUE_LABEL
              + " '"
              + queue
              + "' is replaced by this cluster's queue '"
              + cluster.kueueQueue()
              + "'");
    }
    if (spec.elastic() != null && spec.elastic().hasOwnRendezvous()) {
      notes.add(
          "rendezvous at the job's own "
              + (spec.elastic().rdzvBackend() == null ? "store" : spec.elastic().rdzvBackend())
              + " "
              + spec.elastic().rdzvHost()
              + (spec.elastic().rdzvPort() == null ? "" : ":" + spec.elastic().rdzvPort())
              + ", which must be reachable from the cluster");
    }
    return notes;
  }

  private String tooMany(List<RoleSpec> roles, List<PoolShape> mix) {
    var groups = groups(roles, mix);
    for (var group : groups.entrySet()) {
      var shape = group.getKey();
      var replicas = group.getValue().stream().flatMap(r -> Replica.of(r).stream()).toList();
      var count = NodePacking.nodes(replicas, shape);
      if (count > shape.pool().maxNodes()) {
        return String.join(", ", group.getValue().stream().map(RoleSpec::name).toList())
            + " would need "
            + count
            + " nodes of pool "
            + shape.pool().name()
            + " ("
            + shape.pool().instanceType()
            + "), which has at most "
            + shape.pool().maxNodes();
      }
    }
    throw new IllegalStateException("no pool of the mix is over its maxNodes");
  }

  /**
   * The mixes that put every role on the same pool: a TrainJob's nodes share one pod template, so
   * one node selector.
   */
  static List<List<PoolShape>> onePool(List<List<PoolShape>> candidates) {
    var mixes = new ArrayList<List<PoolShape>>();
    for (var shape : candidates.get(0)) {
      if (candidates.stream().allMatch(c -> c.contains(shape))) {
        mixes.add(Collections.nCopies(candidates.size(), shape));
      }
    }
    return mixes;
  }

  /** Every choice of one pool per role, in the pools' order, at most {@link #MAX_MIXES}. */
  static List<List<PoolShape>> mixes(List<List<PoolShape>> candidates) {
    var mixes = new ArrayList<List<PoolShape>>();
    mixes.add(List.of());
    for (var choices : candidates) {
      var next = new ArrayList<List<PoolShape>>();
      for (var prefix : mixes) {
        for (var choice : choices) {
          if (next.size() == MAX_MIXES) {
            break;
          }
          var mix = new ArrayList<>(prefix);
          mix.add(choice);
          next.add(mix);
        }
      }
      mixes = next;
    }
    return mixes;
  }

  private Proposals rejected(List<String> reasons) {
    return new Proposals(
        List.of(),
        // Fields, runtimes and node pools (up to their maxNodes) against this cluster's
        // configuration: waiting changes none of them (NEVER). A cluster that is down or full is
        // not-now: unreachable at quote time (EksBackend) or the reconciler's requeue at submit.
        reasons.stream()
            .map(r -> new Rejection(cluster.backendId(), r, Rejection.Kind.NEVER))
            .toList());
  }
}
