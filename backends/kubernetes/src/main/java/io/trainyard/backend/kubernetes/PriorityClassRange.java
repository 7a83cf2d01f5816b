package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a cluster block's {@code priorityClasses}: jobs whose queue priority is at least
 * {@code min} (and below the next entry's) get the Kubernetes PriorityClass {@code name} on their
 * pods, unless the spec names one ({@code spec.kubernetes.scheduling.priorityClass} or the pod
 * template's {@code priorityClassName}).
 *
 * <pre>{@code
 * priorityClasses: [{min: 800, name: high}, {min: 300, name: normal}, {min: 0, name: low}]
 * }</pre>
 */
public record PriorityClassRange(int min, String name) {
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  @JsonCreator
  public PriorityClassRange(@JsonProperty("min") int min, @JsonProperty("name") String name) {
    if (min < 0 || min > 1000) {
      throw new IllegalArgumentException("priorityClasses[].min must be between 0 and 1000");
    }
    if (name == null || name.length() > 253 || !DNS1123_SUBDOMAIN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "priorityClasses[].name must be a PriorityClass name (DNS-1123 subdomain)");
    }
    this.min = min;
    this.name = name;
  }

  /**
   * The class of the range {@code priority} falls in: the entry with the highest {@code min} ≤ it.
   */
  static Optional<String> classFor(List<PriorityClassRange> ranges, int priority) {
    return ranges.stream()
        .filter(r -> r.min() <= priority)
        .max(Comparator.comparingInt(PriorityClassRange::min))
        .map(PriorityClassRange::name);
  }
}
