package io.trainyard.gateway.db;

/** What {@link JobStore#insert} did. Only {@link Created} stored anything. */
public sealed interface InsertResult {

  /** The job, its first event and its idempotency key (if any) are stored. */
  record Created(JobRow job) implements InsertResult {}

  /**
   * The caller already used this idempotency key within 24 hours. Answer the existing job when
   * {@code existingSpecHash} equals the new spec's hash, and 409 otherwise.
   */
  record SameKey(String existingJobId, String existingSpecHash) implements InsertResult {}

  /** A live job of the team already has this name. */
  record NameTaken(String existingJobId) implements InsertResult {}

  /** The team's budget refuses the job; nothing was stored. */
  record OverBudget(io.trainyard.cost.Budget.Verdict verdict) implements InsertResult {}
}
