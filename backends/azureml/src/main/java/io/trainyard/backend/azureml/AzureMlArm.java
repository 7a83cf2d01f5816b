package io.trainyard.backend.azureml;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.util.Context;
import io.trainyard.spi.BackendException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The few ARM calls of {@code Microsoft.MachineLearningServices} this backend makes, through
 * azure-core's pipeline (retry, bearer token for {@code https://management.azure.com/.default}).
 * Answers are plain JSON maps; errors become the SPI's typed errors here. Thread-safe.
 *
 * <p>API version {@value #API_VERSION}, a stable release of the Machine Learning Services REST API
 * (azure-rest-api-specs {@code specification/machinelearningservices/resource-manager/
 * Microsoft.MachineLearningServices/stable/2024-04-01}).
 */
final class AzureMlArm {
  static final String API_VERSION = "2024-04-01";
  static final String SCOPE = "https://management.azure.com/.default";

  private final HttpPipeline pipeline;
  private final String base;
  private final String workspaceId;

  /** An answer of ARM: its status and JSON body. */
  record Answer(int status, Map<String, Object> body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  AzureMlArm(HttpPipeline pipeline, AzureMlConfig config) {
    this.pipeline = pipeline;
    this.base = config.armBase();
    this.workspaceId = config.workspaceId();
  }

  static final String PROBE_JOB = "trainyard-health-probe";
  // ARM's answers for a workspace (or its parents) that does not exist, as opposed to a job.
  private static final java.util.Set<String> MISSING_PARENT =
      java.util.Set.of(
          "ResourceNotFound",
          "ParentResourceNotFound",
          "ResourceGroupNotFound",
          "SubscriptionNotFound");

  /**
   * GET of a job that does not exist: cheap, and proves the endpoint, the token and the role on the
   * workspace's jobs (what submit needs; the workspace resource itself may not be readable to an
   * AzureML Data Scientist). A 404 for the job is health; a 404 for the workspace is not.
   */
  void probe() {
    var answer = call(HttpMethod.GET, jobPath(PROBE_JOB), null);
    if (answer.ok()) {
      return;
    }
    var code = AzureJson.string(AzureJson.object(answer.body(), "error"), "code");
    // Set.of's contains throws for null: a 404 without an error code names no missing parent.
    if (answer.status() == 404 && (code == null || !MISSING_PARENT.contains(code))) {
      return;
    }
    throw AzureMlErrorTranslator.fromArm(
        "read jobs of workspace " + workspaceId, answer.status(), answer.body());
  }

  /** The job, or empty when there is none of that name. */
  Optional<Map<String, Object>> job(String name) {
    var answer = call(HttpMethod.GET, jobPath(name), null);
    if (answer.status() == 404) {
      return Optional.empty();
    }
    return Optional.of(expect("read job " + name, answer));
  }

  /** PUT of a job: creates and starts it (Jobs - Create Or Update). */
  Map<String, Object> createJob(String name, Map<String, Object> body) {
    return expect("create job " + name, call(HttpMethod.PUT, jobPath(name), body));
  }

  /** POST {@code .../jobs/{id}/cancel}; the raw answer, since a missing job is not an error. */
  Answer cancelJob(String name) {
    return call(HttpMethod.POST, jobPath(name) + "/cancel", null);
  }

  /**
   * Creates the environment version unless it exists. Versions are immutable, and ours are named
   * after the image they run, so one that exists is the one we want.
   */
  void ensureEnvironment(String name, String version, Map<String, Object> body) {
    var path = workspaceId + "/environments/" + encode(name) + "/versions/" + encode(version);
    var existing = call(HttpMethod.GET, path, null);
    if (existing.ok()) {
      return;
    }
    if (existing.status() != 404) {
      throw AzureMlErrorTranslator.fromArm(
          "read environment " + name + ":" + version, existing.status(), existing.body());
    }
    var created = call(HttpMethod.PUT, path, body);
    // 409: another gateway created it between our GET and PUT.
    if (!created.ok() && created.status() != 409) {
      throw AzureMlErrorTranslator.fromArm(
          "create environment " + name + ":" + version, created.status(), created.body());
    }
  }

  /** ARM's id of an environment version, as a job's {@code environmentId}. */
  String environmentId(String name, String version) {
    return workspaceId + "/environments/" + name + "/versions/" + version;
  }

  private String jobPath(String name) {
    return workspaceId + "/jobs/" + encode(name);
  }

  private Map<String, Object> expect(String action, Answer answer) {
    if (!answer.ok()) {
      throw AzureMlErrorTranslator.fromArm(action, answer.status(), answer.body());
    }
    return answer.body();
  }

  Answer call(HttpMethod method, String path, Map<String, Object> body) {
    var url = base + path + "?api-version=" + API_VERSION;
    var request = new HttpRequest(method, url);
    request.setHeader(HttpHeaderName.ACCEPT, "application/json");
    if (body != null) {
      request.setHeader(HttpHeaderName.CONTENT_TYPE, "application/json");
      request.setBody(AzureJson.write(body));
    }
    var action = method + " " + path;
    try (var response = pipeline.sendSync(request, Context.NONE)) {
      var bytes = response.getBodyAsBinaryData().toBytes();
      Map<String, Object> json;
      try {
        json = AzureJson.readObject(bytes);
      } catch (IllegalArgumentException e) {
        // A proxy's HTML page or a truncated answer: say what came back, not what it said.
        if (response.getStatusCode() >= 400) {
          json = Map.of();
        } else {
          throw new BackendException.Retryable(
              action + ": HTTP " + response.getStatusCode() + " with a body that is not JSON", e);
        }
      }
      return new Answer(response.getStatusCode(), json);
    } catch (RuntimeException e) {
      throw AzureMlErrorTranslator.fromException(action, e);
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
