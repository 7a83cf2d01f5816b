package io.trainyard.gateway.logging;

import io.trainyard.gateway.db.JobRow;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.MDC;

/**
 * Puts a job's id, team and backend in the logging MDC for the lines written while the gateway acts
 * on it (the JSON layout shows them as fields; the request id is there already, {@code
 * RequestIds}), and puts back what was there before when closed: use it in try-with-resources on
 * the thread doing the work. Never holds anything secret: ids and names only.
 */
public final class JobMdc implements AutoCloseable {
  public static final String JOB_ID = "jobId";
  public static final String TEAM = "team";
  public static final String BACKEND = "backend";

  private final Map<String, String> before = new LinkedHashMap<>();

  private JobMdc(String jobId, String team, String backend) {
    put(JOB_ID, jobId);
    put(TEAM, team);
    put(BACKEND, backend);
  }

  /** The job's fields until closed; a job not routed yet has no backend field. */
  public static JobMdc of(JobRow job) {
    return new JobMdc(job.id(), job.team(), job.backendId());
  }

  /** The given fields until closed; a null one is left out. */
  public static JobMdc of(String jobId, String team, String backend) {
    return new JobMdc(jobId, team, backend);
  }

  private void put(String key, String value) {
    before.put(key, MDC.get(key));
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }

  @Override
  public void close() {
    before.forEach(
        (key, value) -> {
          if (value == null) {
            MDC.remove(key);
          } else {
            MDC.put(key, value);
          }
        });
  }
}
