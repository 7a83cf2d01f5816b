package io.trainyard.backend.sagemaker;

import io.trainyard.spi.spec.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The spec's labels for the job object ({@code spec.kubernetes.jobLabels}) as SageMaker tags, under
 * SageMaker's rules: keys of 1 to 128 and values of at most 256 characters from letters, digits,
 * spaces and {@code _.:/=+-@}, no key starting with {@code aws:}, at most 50 tags on a training job
 * with Trainyard's own ({@code trainyard:*}, which win). Kubernetes label keys and values always
 * pass the character rule; a longer key, an {@code aws:} key or one past the limit is left out and
 * said.
 *
 * @param tags the labels that are tags, in order
 * @param leftOut one reason per label left out, worded for the quote table
 */
record SageMakerUserTags(Map<String, String> tags, List<String> leftOut) {
  static final int MAX_TAGS = 50;
  private static final Pattern ALLOWED = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

  static SageMakerUserTags of(JobSpec spec, int ownTags) {
    var tags = new LinkedHashMap<String, String>();
    var leftOut = new ArrayList<String>();
    for (var e : spec.jobLabels().entrySet()) {
      var key = e.getKey();
      var value = e.getValue();
      String why = null;
      if (key.length() > 128 || !ALLOWED.matcher(key).matches()) {
        why = "is not a SageMaker tag key (at most 128 letters, digits, spaces and _.:/=+-@)";
      } else if (key.startsWith("aws:") || key.startsWith("trainyard:")) {
        why = "uses a prefix reserved for AWS's or Trainyard's own tags";
      } else if (value.length() > 256 || !ALLOWED.matcher(value).matches()) {
        why = "has a value SageMaker tags cannot hold";
      } else if (ownTags + tags.size() >= MAX_TAGS) {
        why = "is past SageMaker's " + MAX_TAGS + " tags";
      }
      if (why == null) {
        tags.put(key, value);
      } else {
        leftOut.add("spec.kubernetes.jobLabels." + key + " " + why + "; not tagged");
      }
    }
    if (!spec.jobAnnotations().isEmpty()) {
      leftOut.add(
          "spec.kubernetes.jobAnnotations ("
              + String.join(", ", spec.jobAnnotations().keySet())
              + ") are not used: a SageMaker training job has no annotations");
    }
    return new SageMakerUserTags(tags, leftOut);
  }
}
