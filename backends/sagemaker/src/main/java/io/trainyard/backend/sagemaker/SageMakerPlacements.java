package io.trainyard.backend.sagemaker;

import io.trainyard.spi.InstanceShape;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.ShapeFit;
import io.trainyard.spi.ShapeFit.Need;
import io.trainyard.spi.WaitingAhead;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The ways SageMaker could run a job. A training job runs every instance on one {@code ml.*} type,
 * one replica per instance, so a type fits when it holds the largest replica of any role; each
 * fitting type is proposed on demand, and again as managed spot when the job allows spot. Pure
 * apart from reading instance shapes.
 */
final class SageMakerPlacements {
  static final String PROVIDER = "aws";
  static final String SERVICE = "sagemaker";

  private final SageMakerConfig config;
  private final InstanceShapes shapes;
  private final SageMakerSpecChecks checks;

  SageMakerPlacements(SageMakerConfig config, InstanceShapes shapes) {
    this.config = config;
    this.shapes = shapes;
    this.checks = new SageMakerSpecChecks(config);
  }

  Proposals propose(JobSpec spec) {
    var reasons = new ArrayList<>(checks.reasonsAgainst(spec));
    var need = Need.of(spec.roleSpecs());
    if (need.gpuTypes().size() > 1) {
      reasons.add(
          "roles need different GPU types ("
              + String.join(", ", need.gpuTypes())
              + "), and a SageMaker job runs every instance on one type");
    }
    if (!reasons.isEmpty()) {
      return new Proposals(List.of(), reasons.stream().map(this::rejection).toList());
    }
    var fitting = fitting(need);
    if (fitting.isEmpty()) {
      return new Proposals(List.of(), List.of(rejection(whyNothingFits(need))));
    }
    var spot = spec.effectivePlacement().effectiveSpot();
    var job = new JobFacts(spec, need);
    var placements = new ArrayList<Placement>();
    for (var shape : fitting) {
      if (spot != SpotPolicy.REQUIRED) {
        placements.add(placement(job, shape, false));
      }
      if (spot != SpotPolicy.NEVER) {
        placements.add(placement(job, shape, true));
      }
    }
    return new Proposals(placements, List.of());
  }

  /**
   * What every placement of one proposal says of the job, worked out once per proposal rather than
   * once per instance type and spot choice: the roles, those smaller than the largest, the notes
   * that do not depend on the type.
   */
  private record JobFacts(
      JobSpec spec, List<String> roles, List<String> smaller, List<String> notes) {
    JobFacts(JobSpec spec, Need need) {
      this(spec, spec.roleSpecs(), need);
    }

    private JobFacts(JobSpec spec, List<RoleSpec> roleSpecs, Need need) {
      this(
          spec,
          roleSpecs.stream().map(RoleSpec::name).toList(),
          roleSpecs.size() > 1
              ? roleSpecs.stream()
                  .filter(r -> r.resources().gpuCount() < need.gpus())
                  .map(RoleSpec::name)
                  .toList()
              : List.of(),
          jobNotes(spec, roleSpecs));
    }
  }

  /** Why the spec cannot run here whatever the type; checked again at submit. */
  List<String> reasonsAgainst(JobSpec spec) {
    return checks.reasonsAgainst(spec);
  }

  private Placement placement(JobFacts job, InstanceShape shape, boolean spot) {
    var spec = job.spec();
    var line =
        new PlacementLine(
            job.roles(), shape.instanceType(), spec.totalReplicas(), shape.gpuType(), shape.gpus());
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
        notes(job, shape, spot),
        WaitingAhead.unknown(
            "SageMaker's API tells no queue ahead of a new training job: CreateTrainingJob"
                + " starts it or refuses it for capacity (ResourceLimitExceeded)"),
        SageMakerStorage.hasInstanceStore(shape.instanceType()) ? null : config.volumeSizeGb());
  }

  private List<String> notes(JobFacts job, InstanceShape shape, boolean spot) {
    var notes = new ArrayList<String>();
    if (!job.smaller().isEmpty()) {
      notes.add(
          String.join(", ", job.smaller())
              + " also run on "
              + shape.instanceType()
              + ": a SageMaker job uses one instance type for every replica");
    }
    notes.addAll(job.notes());
    if (spot && job.spec().checkpoint() == null) {
      notes.add("managed spot without spec.checkpoint restarts from scratch when interrupted");
    }
    notes.add(SageMakerStorage.note(shape.instanceType(), config.volumeSizeGb()));
    return notes;
  }

  /** The notes of every placement of {@code spec}, whatever its instance type. */
  private static List<String> jobNotes(JobSpec spec, List<RoleSpec> roleSpecs) {
    var notes = new ArrayList<String>();
    var secretNames = new LinkedHashSet<String>();
    roleSpecs.forEach(r -> secretNames.addAll(r.secretEnv().keySet()));
    if (!secretNames.isEmpty()) {
      notes.add(
          "secretEnv reaches the container as the Secrets Manager ARN in <NAME>_SECRET_ARN ("
              + String.join(", ", secretNames)
              + "); the job's role reads the value");
    }
    if (spec.elastic() != null) {
      notes.add(
          "elastic bounds"
              + (spec.elastic().metrics() != null ? " and metrics" : "")
              + (spec.elastic().hasOwnRendezvous() ? " and rendezvous store" : "")
              + " are not used: SageMaker runs the replicas asked for");
    }
    if (!spec.deepspeed().isEmpty()) {
      notes.add("spec.deepspeed is not passed to SageMaker: ship the config in the image");
    }
    // Trainyard's own tags: job id, attempt, spec hash, team, owner, name.
    notes.addAll(SageMakerUserTags.of(spec, 6).leftOut());
    return List.copyOf(notes);
  }

  private List<InstanceShape> fitting(Need need) {
    return ShapeFit.fitting(need, known());
  }

  private String whyNothingFits(Need need) {
    var words =
        new ShapeFit.Words(
            "ml.* type", "types", "instance", " in " + config.region(), "instanceTypes");
    return ShapeFit.whyNothingFits(config.id(), need, known(), unknownTypes(), words);
  }

  private List<InstanceShape> known() {
    return config.instanceTypes().stream().map(this::shapeOf).flatMap(Optional::stream).toList();
  }

  private List<String> unknownTypes() {
    return config.instanceTypes().stream()
        .filter(t -> shapeOf(t).isEmpty())
        .map(SageMakerInstanceType::type)
        .toList();
  }

  /**
   * The declared shape, else the catalog's SageMaker row, else the EC2 row of the same hardware
   * ({@code ml.g5.xlarge} is a {@code g5.xlarge}).
   */
  private Optional<InstanceShape> shapeOf(SageMakerInstanceType type) {
    var declared = type.declaredShape();
    if (declared != null) {
      return Optional.of(declared);
    }
    return shapes
        .find(PROVIDER, SERVICE, config.region(), type.type())
        .or(
            () ->
                shapes
                    .find(PROVIDER, "ec2", config.region(), type.type().substring(3))
                    .map(
                        s ->
                            new InstanceShape(
                                type.type(),
                                s.vcpus(),
                                s.memoryGiB(),
                                s.gpuType(),
                                s.gpus(),
                                s.gpuMemoryGiB())));
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
