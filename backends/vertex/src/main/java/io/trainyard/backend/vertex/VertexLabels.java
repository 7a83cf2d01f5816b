package io.trainyard.backend.vertex;

import io.trainyard.spi.BackendJob;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The labels that tie a custom job to its attempt. Vertex label values are lower-case letters,
 * digits, {@code _} and {@code -}, at most 63 characters: the job id (a lower-case ULID) fits as
 * is; the spec hash (64 hex digits) is kept to its first 63, which still identifies a spec; team
 * and name are lower-cased with other characters turned into {@code _}. The spec's own labels for
 * the job object follow, where Vertex can hold them ({@link VertexUserLabels}).
 */
final class VertexLabels {
  static final String JOB_ID = "trainyard-job-id";
  static final String ATTEMPT = "trainyard-attempt";
  static final String SPEC_HASH = "trainyard-spec-hash";
  static final String TEAM = "trainyard-team";
  static final String NAME = "trainyard-name";

  private static final Pattern UNSAFE = Pattern.compile("[^a-z0-9_-]");
  private static final int MAX = 63;

  private VertexLabels() {}

  static Map<String, String> of(BackendJob job) {
    var labels = new LinkedHashMap<String, String>();
    labels.put(JOB_ID, value(job.jobId()));
    labels.put(ATTEMPT, Integer.toString(job.attempt()));
    labels.put(SPEC_HASH, value(job.specHash()));
    if (job.team() != null) {
      labels.put(TEAM, value(job.team()));
    }
    if (job.name() != null) {
      labels.put(NAME, value(job.name()));
    }
    VertexUserLabels.of(job.spec(), labels.size()).labels().forEach(labels::putIfAbsent);
    return labels;
  }

  static String value(String raw) {
    var safe = UNSAFE.matcher(raw.toLowerCase(Locale.ROOT)).replaceAll("_");
    return safe.length() > MAX ? safe.substring(0, MAX) : safe;
  }
}
