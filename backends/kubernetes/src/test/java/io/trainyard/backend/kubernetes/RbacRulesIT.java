package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.trainyard.spi.LogQuery;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The ClusterRole of {@code deploy/base/rbac.yaml} is exactly what the backend uses: every request
 * the backend makes through a job's whole life — submit (with the DeepSpeed ConfigMap and the
 * Secret of the gateway's metrics token), watch, status, logs of every replica, cancel, clean-up —
 * is mapped to the API server's authorization attributes (API group, resource, verb, as its
 * request-info resolver does: GET of a collection is {@code list}, with {@code watch=true} {@code
 * watch}, POST {@code create}, ...), and that set equals the role's rules. The job resources of the
 * other operator kinds, and TrainJobs, get the same verbs as PyTorchJobs (the backend treats every
 * kind alike; {@code JobKind}).
 */
class RbacRulesIT extends CrudServerTest {
  private static final Path RBAC = Path.of("../../deploy/base/rbac.yaml");
  private static final String JOBS = "kubeflow.org/pytorchjobs";

  @Test
  void theClusterRoleGrantsWhatTheBackendDoesAndNothingMore() throws Exception {
    var deepspeed = SPEC + "deepspeed: {zero_optimization: {stage: 2}}\n";
    // With the metrics token the gateway hands to jobs: a Secret beside the job object.
    var cancelled =
        submit(job(deepspeed).withGatewaySecretEnv(Map.of("TRAINYARD_METRICS_TOKEN", "tym_x")));
    var at = Attempt.of(cancelled);
    operator.pods(at, Map.of("Master", 1, "Worker", 2));
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(cancelled, io.trainyard.spi.BackendPhase.RUNNING);
    var logs = backend.logs(cancelled, LogQuery.ALL);
    while (logs.next().isPresent()) {
      // read to the end: every replica's log is asked for
    }
    logs.close();
    backend.cancel(cancelled);

    var finished = submit(job(SPEC));
    operator.succeeded(Attempt.of(finished));
    awaitPhase(finished, io.trainyard.spi.BackendPhase.SUCCEEDED);
    backend.cleanup(finished);
    backend.cleanup(cancelled);

    var used = new TreeMap<String, Set<String>>();
    for (var request : cluster.drainRequests()) {
      if (!"trainyard-test-admin".equals(request.getHeader("User-Agent"))) {
        used.computeIfAbsent(resource(request), k -> new TreeSet<>()).add(verb(request));
      }
    }
    assertThat(used).as("what the backend did").containsKey(JOBS);
    var granted = granted(used.get(JOBS));
    // Granted, but used only when timing says so: fabric8 reads a pod's log after waiting for the
    // pod to be ready, which lists it and, when it is not ready yet, watches it.
    for (var sometimes : Map.of("pods", "watch").entrySet()) {
      assertThat(granted.get(sometimes.getKey())).contains(sometimes.getValue());
      if (!used.getOrDefault(sometimes.getKey(), Set.of()).contains(sometimes.getValue())) {
        granted.get(sometimes.getKey()).remove(sometimes.getValue());
      }
    }
    assertThat(used).isEqualTo(granted);
  }

  /** The role's rules as resource → verbs, other job kinds folded into PyTorchJobs' entry. */
  private static TreeMap<String, Set<String>> granted(Set<String> jobVerbs) throws Exception {
    var role = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(RBAC));
    var granted = new TreeMap<String, Set<String>>();
    for (JsonNode rule : role.get("rules")) {
      for (var group : rule.get("apiGroups")) {
        for (var resource : rule.get("resources")) {
          var key = (group.asText().isEmpty() ? "" : group.asText() + "/") + resource.asText();
          var verbs = new TreeSet<String>();
          rule.get("verbs").forEach(v -> verbs.add(v.asText()));
          granted.merge(
              key,
              verbs,
              (a, b) -> {
                a.addAll(b);
                return a;
              });
        }
      }
    }
    // Every job kind gets what PyTorchJobs need: the backend handles all kinds alike.
    granted.forEach(
        (key, verbs) -> {
          if ((key.startsWith("kubeflow.org/") || key.startsWith("trainer.kubeflow.org/"))
              && !key.equals(JOBS)) {
            assertThat(verbs).as(key + " as PyTorchJobs").isEqualTo(jobVerbs);
          }
        });
    granted.keySet().removeIf(k -> k.contains("kubeflow.org/") && !k.equals(JOBS));
    return granted;
  }

  /** {@code group/resource[/subresource]} of a request path, as the API server's resolver. */
  private static String resource(RecordedRequest request) {
    var parts = URI.create(request.getPath()).getPath().split("/");
    // /api/v1/... or /apis/group/version/...
    var group = parts[1].equals("api") ? "" : parts[2];
    var i = parts[1].equals("api") ? 3 : 4;
    if (i < parts.length && parts[i].equals("namespaces") && i + 2 < parts.length) {
      i += 2;
    }
    var resource = parts[i];
    if (i + 2 < parts.length) {
      resource += "/" + parts[i + 2];
    }
    return (group.isEmpty() ? "" : group + "/") + resource;
  }

  private static String verb(RecordedRequest request) {
    var uri = URI.create(request.getPath());
    var parts = uri.getPath().split("/");
    var named = parts[1].equals("api") ? namedAt(parts, 3) : namedAt(parts, 4);
    return switch (request.getMethod()) {
      case "GET" ->
          uri.getQuery() != null && uri.getQuery().contains("watch=true")
              ? "watch"
              : named ? "get" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> request.getMethod().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** Whether the path names one object (…/resource/name[/sub]) rather than a collection. */
  private static boolean namedAt(String[] parts, int i) {
    if (i < parts.length && parts[i].equals("namespaces") && i + 2 < parts.length) {
      i += 2;
    }
    return i + 1 < parts.length;
  }
}
