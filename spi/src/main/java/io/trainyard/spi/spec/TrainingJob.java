package io.trainyard.spi.spec;

/**
 * The document a user submits: {@code apiVersion: trainyard.io/v1}, {@code kind: TrainingJob}.
 * Parsing leaves it unchecked; {@link JobSpecValidator} says what is wrong with it, field by field.
 */
public record TrainingJob(String apiVersion, String kind, ObjectMeta metadata, JobSpec spec) {
  public static final String API_VERSION = "trainyard.io/v1";
  public static final String KIND = "TrainingJob";

  /** This job, moved into {@code team} (the team is resolved from the caller, not trusted). */
  public TrainingJob withTeam(String team) {
    var meta = metadata == null ? new ObjectMeta(null, team, null) : metadata;
    return new TrainingJob(
        apiVersion,
        kind,
        new ObjectMeta(meta.name(), team, meta.labels(), meta.generateName()),
        spec);
  }

  /**
   * This job with a name: its own, or one made from {@code metadata.generateName} with {@code
   * suffix} (see {@link ObjectMeta}). Call only on a valid job.
   */
  public TrainingJob named(String suffix) {
    if (metadata.name() != null) {
      return this;
    }
    return new TrainingJob(
        apiVersion, kind, metadata.withName(metadata.generateName() + suffix), spec);
  }
}
