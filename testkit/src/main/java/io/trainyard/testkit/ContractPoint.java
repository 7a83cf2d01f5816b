package io.trainyard.testkit;

/**
 * The points of {@link TrainingBackendContract}, each one test (or a few) every backend runs. A
 * backend that genuinely cannot take part in one says why through {@link
 * TrainingBackendContract#unsupported}; the test is then reported as skipped with that reason.
 */
public enum ContractPoint {
  /** Submitting the same attempt twice returns the same reference and makes one object. */
  SUBMIT_IS_IDEMPOTENT,
  /**
   * An object already there under the attempt's name, made for the same job id and spec hash (a
   * gateway that died after submit), is adopted: same reference, still one object.
   */
  ADOPTS_ITS_OWN_OBJECT,
  /**
   * An object already there under the attempt's name but made for another job, or for the same job
   * with another spec hash, is refused with {@code Rejected} and left alone.
   */
  REFUSES_A_FOREIGN_OBJECT,
  /** The status of an object deleted behind the backend's back is {@code NotFound}. */
  DELETED_OBJECT_IS_NOT_FOUND,
  /** Cancel twice, cancel of a finished attempt, cancel of a missing object: no error. */
  CANCEL_IS_IDEMPOTENT,
  /**
   * {@code placements} over a wide set of specs never throws, names this backend in every answer,
   * and gives a non-blank reason for every refusal (and at least one when it offers nothing).
   */
  PLACEMENTS_EXPLAIN_EVERY_REFUSAL,
  /**
   * Every exception an SPI method throws in these scenarios is a {@code BackendException} subtype:
   * no SDK exception, no {@code IllegalArgumentException} leaks to the gateway.
   */
  ERRORS_ARE_TYPED
}
