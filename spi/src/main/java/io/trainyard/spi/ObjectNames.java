package io.trainyard.spi;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Backend objects are named {@code ty-<job id>-a<attempt>}: a valid DNS-1035 label (the job id is a
 * lower-case ULID), unique per attempt, and enough to find the job again from the object.
 */
public final class ObjectNames {
  private static final Pattern NAME = Pattern.compile("ty-([0-9a-z]{26})-a([1-9][0-9]{0,4})");

  private ObjectNames() {}

  public static String of(String jobId, int attempt) {
    return "ty-" + jobId + "-a" + attempt;
  }

  /** The job id in an object name, if it is one of ours. */
  public static Optional<String> jobIdOf(String objectName) {
    var m = NAME.matcher(objectName);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }
}
