package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/**
 * Many running PyTorchJobs on fabric8's CRUD API server, changed by the fake training operator, and
 * Kubernetes backends following them: for benchmarks outside this package (bench's {@code follow}
 * scenario) that run the gateway's reconciler over the backend, as {@link FollowCostMain} does over
 * the backend alone. Requests are counted at the server by user agent.
 */
public final class FollowedCluster implements AutoCloseable {
  public static final String NAMESPACE = "nlp-jobs";

  private final CrudApiServer server = new CrudApiServer();
  private final FakeTrainingOperator operator;
  private final KubernetesConfig config = TestJobs.config(TestJobs.AWS_POOLS);
  private final KubeflowJobRenderer renderer = new KubeflowJobRenderer(config.settings());
  private final JobSpec spec = TestJobs.spec(CrudServerTest.SPEC);
  private final Placement placement;

  public FollowedCluster(Clock clock) {
    operator = new FakeTrainingOperator(server.client(), clock);
    placement =
        new KubernetesPlacements(config.settings(), PriceCatalog.embedded())
            .propose(spec)
            .placements()
            .get(0);
  }

  /** The id of the backends {@link #backend} makes, as in their {@link ExternalRef}s. */
  public String backendId() {
    return config.settings().backendId();
  }

  /** The backend's configuration, for the gateway's backend registry. */
  public BackendConfig config() {
    return config;
  }

  /**
   * Creates attempt 1 of job {@code jobId} as the backend would at submit, and has the operator
   * report it running.
   *
   * @return the attempt's reference, as the backend's submit returns it
   */
  public ExternalRef running(String jobId) {
    var job = TestJobs.job(jobId, spec, "0".repeat(64), placement);
    GenericKubernetesResource object = renderer.desired(job, placement);
    var at = new Attempt(JobKind.PYTORCH_JOB, NAMESPACE, job.objectName());
    var template = runningStatus;
    var api =
        server
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB))
            .inNamespace(NAMESPACE);
    var created = api.resource(object).create();
    if (template != null) {
      // Two requests rather than the operator's five: the CRUD server scans every object it
      // holds on each request, so setting up 10,000 jobs the operator's way takes many minutes.
      created.getAdditionalProperties().put("status", statusOf(template, at.name()));
      api.resource(created).updateStatus();
    }
    if (template == null) {
      operator.created(at);
      operator.running(at, Map.of("Master", 1, "Worker", 2));
      synchronized (this) {
        if (runningStatus == null) {
          runningStatus =
              Serialization.asJson(operator.get(at).getAdditionalProperties().get("status"))
                  .replace(at.name(), NAME);
        }
      }
    }
    return at.ref(backendId());
  }

  private static final String NAME = "$NAME$";

  /** The status the operator wrote for the first running job, its name replaced by NAME. */
  private volatile String runningStatus;

  private static Object statusOf(String template, String name) {
    return Serialization.unmarshal(template.replace(NAME, name), Map.class);
  }

  /** The operator reports the attempt suspended (the backend's phase SUSPENDED). */
  public void suspend(ExternalRef ref) {
    operator.suspended(Attempt.of(ref));
  }

  /** The operator reports the attempt resumed (running again). */
  public void resume(ExternalRef ref) {
    operator.resumed(Attempt.of(ref));
  }

  /** A fresh backend on this cluster whose client names itself {@code userAgent}. */
  public KubernetesBackend backend(String userAgent, Path dataDir, Clock clock) {
    return KubernetesBackend.create(
        "kubernetes",
        config.settings(),
        server.newClient(userAgent),
        new BackendContext(PriceCatalog.embedded(), dataDir, clock));
  }

  /**
   * Requests made by clients whose user agent starts with {@code userAgent} since the last call, by
   * kind (list, watch, get, other methods); forgets every recorded request.
   */
  public Map<String, Integer> drainRequests(String userAgent) throws InterruptedException {
    var counts = new TreeMap<String, Integer>();
    for (var r : server.drainRequests()) {
      var agent = r.getHeader("User-Agent");
      if (agent == null || !agent.startsWith(userAgent)) {
        continue;
      }
      var path = r.getPath();
      String kind;
      if (path.contains("watch=true")) {
        kind = "watch";
      } else if (r.getMethod().equals("GET") && path.contains("labelSelector")) {
        kind = "list";
      } else if (r.getMethod().equals("GET")) {
        kind = "get";
      } else {
        kind = r.getMethod().toLowerCase();
      }
      counts.merge(kind, 1, Integer::sum);
    }
    return counts;
  }

  @Override
  public void close() {
    server.close();
  }
}
