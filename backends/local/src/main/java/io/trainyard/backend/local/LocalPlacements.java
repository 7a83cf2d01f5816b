package io.trainyard.backend.local;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/** What the local backend can run: CPU jobs that name a command. Pure. */
final class LocalPlacements {
  static final String PROVIDER = "local";
  static final String SERVICE = "local";
  static final String INSTANCE_TYPE = "localhost";

  private final LocalConfig config;

  LocalPlacements(LocalConfig config) {
    this.config = config;
  }

  /**
   * The one placement of {@code spec} on this host, or every reason it cannot run here: what the
   * spec asks that this host never has is {@code NEVER}; a host whose slots are all taken is {@code
   * NOT_NOW}.
   *
   * @param freeSlots job slots free right now, shown as the placement's free capacity
   */
  Proposals propose(JobSpec spec, int freeSlots) {
    var reasons = reasonsAgainst(spec);
    if (!reasons.isEmpty()) {
      return new Proposals(
          List.of(), reasons.stream().map(r -> new Rejection(config.id(), r)).toList());
    }
    if (freeSlots <= 0) {
      // Every job slot is taken: the job fits, just not now (it waits in the gateway's queue).
      return Proposals.notNow(
          config.id(),
          "no free job slot: all "
              + config.maxConcurrentJobs()
              + " of maxConcurrentJobs are running");
    }
    var roles = spec.roleSpecs().stream().map(RoleSpec::name).toList();
    var line = new PlacementLine(roles, INSTANCE_TYPE, 1, null, 0);
    return Proposals.of(
        new Placement(
            config.id(),
            PROVIDER,
            SERVICE,
            config.region(),
            false,
            List.of(line),
            config.usdPerHour(),
            null,
            Math.max(0, freeSlots),
            notes(spec)));
  }

  List<String> reasonsAgainst(JobSpec spec) {
    var reasons = new ArrayList<String>();
    if (spec.totalGpus() > 0) {
      reasons.add("the local backend has no GPUs");
    }
    // Every Kubernetes-only feature, each in its own words (PVCs, pod-template fields, gang
    // scheduling, a TrainJob's initializer or pod patches).
    reasons.addAll(KubernetesOnly.reasons(spec));
    if (spec.elastic() != null && spec.elastic().hasOwnRendezvous()) {
      // Sandboxed replicas share a network namespace with nothing but their own loopback.
      reasons.add(
          "spec.elastic.rdzvHost: the job meets at its own rendezvous store "
              + spec.elastic().rdzvHost()
              + ", which local replicas cannot reach (they have no network beyond their own"
              + " loopback)");
    }
    if (spec.framework() != Framework.PYTORCH
        && spec.framework() != Framework.MPI
        && spec.effectiveProcessesPerReplica() > 1) {
      // As on Kubernetes: only torchrun (nprocPerNode) and mpirun (slots) start several.
      reasons.add(
          "spec.processesPerReplica: a "
              + spec.framework().wireName()
              + " job runs one process per replica; ask for more replicas instead");
    }
    var withoutCommand =
        spec.roleSpecs().stream().filter(r -> r.command().isEmpty()).map(RoleSpec::name).toList();
    if (withoutCommand.size() == spec.roleSpecs().size()) {
      reasons.add("needs spec.command: the local backend runs commands, not images");
    } else if (!withoutCommand.isEmpty()) {
      reasons.add(
          "role "
              + String.join(", ", withoutCommand)
              + " needs a command (spec.command or spec.roles.<role>.command): the local backend"
              + " runs commands, not images");
    }
    return reasons;
  }

  private static List<String> notes(JobSpec spec) {
    var notes = new ArrayList<String>();
    var images = new LinkedHashSet<String>();
    spec.roleSpecs().stream().map(RoleSpec::image).filter(Objects::nonNull).forEach(images::add);
    if (!images.isEmpty()) {
      notes.add(
          "image "
              + String.join(", ", images)
              + " is recorded but not run: replicas run `command` as local processes");
    }
    if (!spec.jobLabels().isEmpty() || !spec.jobAnnotations().isEmpty()) {
      notes.add(
          "spec.kubernetes.jobLabels and jobAnnotations are not used: local processes have none");
    }
    if (spec.kubernetes() != null
        && spec.kubernetes().mpi() != null
        && spec.kubernetes().mpi().isDefault()) {
      // Other values are rejected (KubernetesOnly); these are what the local backend does anyway.
      notes.add(
          "spec.kubernetes.mpi is at the MPI Operator's defaults: the local backend runs Open MPI"
              + " with a hostfile and no SSH");
    }
    if (spec.elastic() != null) {
      notes.add(
          "elastic bounds"
              + (spec.elastic().metrics() != null ? " and metrics" : "")
              + " are not used: the local backend runs the replicas asked for");
    }
    return notes;
  }
}
