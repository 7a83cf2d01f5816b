package io.trainyard.backend.vertex;

import io.trainyard.spi.spec.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The spec's labels for the job object ({@code spec.kubernetes.jobLabels}) as Vertex custom-job
 * labels, under Google Cloud's rules: keys and values of at most 63 characters, lower-case letters,
 * digits, {@code _} and {@code -} only, keys starting with a letter, at most 64 labels with
 * Trainyard's own ({@code trainyard-*}, which win). Kubernetes labels that break them (a {@code
 * prefix/} or a {@code .} in the key, an upper-case value) are left out and said: rewriting them
 * would tag the job with labels its author never wrote.
 *
 * @param labels the labels Vertex can hold, in order
 * @param leftOut one reason per label left out, worded for the quote table
 */
record VertexUserLabels(Map<String, String> labels, List<String> leftOut) {
  static final int MAX_LABELS = 64;
  private static final Pattern KEY = Pattern.compile("\\p{Ll}[\\p{Ll}\\p{Lo}\\p{N}_-]{0,62}");
  private static final Pattern VALUE = Pattern.compile("[\\p{Ll}\\p{Lo}\\p{N}_-]{0,63}");

  static VertexUserLabels of(JobSpec spec, int ownLabels) {
    var labels = new LinkedHashMap<String, String>();
    var leftOut = new ArrayList<String>();
    for (var e : spec.jobLabels().entrySet()) {
      var key = e.getKey();
      String why = null;
      if (!KEY.matcher(key).matches()) {
        why =
            "is not a Vertex label key (lower-case letters, digits, _ and -, at most 63,"
                + " starting with a letter)";
      } else if (key.startsWith("trainyard-")) {
        why = "uses the prefix of Trainyard's own labels";
      } else if (!VALUE.matcher(e.getValue()).matches()) {
        why = "has a value Vertex labels cannot hold (lower-case letters, digits, _ and -)";
      } else if (ownLabels + labels.size() >= MAX_LABELS) {
        why = "is past Vertex's " + MAX_LABELS + " labels";
      }
      if (why == null) {
        labels.put(key, e.getValue());
      } else {
        leftOut.add("spec.kubernetes.jobLabels." + key + " " + why + "; not labelled");
      }
    }
    if (!spec.jobAnnotations().isEmpty()) {
      leftOut.add(
          "spec.kubernetes.jobAnnotations ("
              + String.join(", ", spec.jobAnnotations().keySet())
              + ") are not used: a Vertex custom job has no annotations");
    }
    return new VertexUserLabels(labels, leftOut);
  }
}
