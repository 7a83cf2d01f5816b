package io.trainyard.backend.gke;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.BackendException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a cluster's endpoint and CA through the GKE API, as {@code gcloud container clusters
 * get-credentials} does: {@code GET {containerApi}/v1/projects/{project}/locations/{location}
 * /clusters/{cluster}} (method {@code projects.locations.clusters.get}, IAM permission {@value
 * #PERMISSION}, scope cloud-platform) answers a {@code Cluster} whose {@code endpoint} is the API
 * server's IP address or host (https, port 443) and whose {@code masterAuth.clusterCaCertificate}
 * is base64 of the CA's PEM.
 *
 * <p>Only a cluster whose {@code status} is {@code RUNNING} or {@code RECONCILING} (an upgrade in
 * progress; its API server answers) is used. Every failure says which cluster and what to fix, and
 * none carries the access token or the request's headers. Failures that may pass are {@link
 * BackendException}s, so the gateway starts without the backend and retries: the API unreachable,
 * 5xx or 429, or a cluster not running ({@code Retryable}); 401 or 403, or Google refusing the
 * credentials ({@code Unauthenticated}). A 404 or another 4xx is the block's mistake ({@link
 * IllegalArgumentException}).
 */
final class GkeClusterLookup {
  /** The IAM permission {@code projects.locations.clusters.get} requires. */
  static final String PERMISSION = "container.clusters.get";

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Set<String> USABLE = Set.of("RUNNING", "RECONCILING");
  private static final Logger LOG = LoggerFactory.getLogger(GkeClusterLookup.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private GkeClusterLookup() {}

  /**
   * Looks the block's cluster up.
   *
   * @param token the current access token; a {@link RuntimeException} from it (Google refused the
   *     credentials, or could not be reached) fails the lookup
   * @throws IllegalArgumentException the block names a cluster that is not there
   * @throws BackendException.Retryable the GKE API cannot be reached or the cluster is not running
   * @throws BackendException.Unauthenticated the credentials were refused
   */
  static GkeEndpoint endpoint(GkeConfig config, Supplier<String> token) {
    // The token goes only where containerEndpoint says: never follow a redirect elsewhere.
    var http =
        HttpClient.newBuilder()
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    return endpoint(config, token, http);
  }

  static GkeEndpoint endpoint(GkeConfig config, Supplier<String> token, HttpClient http) {
    var location = config.clusterLocation();
    var name =
        "projects/" + config.project() + "/locations/" + location + "/clusters/" + config.cluster();
    var where =
        config.id()
            + ": cluster "
            + config.cluster()
            + " (project "
            + config.project()
            + ", location "
            + location
            + ")";
    var url = config.containerApi() + "/v1/" + name;

    String bearer;
    try {
      bearer = token.get();
    } catch (KubernetesClientException e) {
      var message =
          where
              + " cannot be looked up through the GKE API without an access token: "
              + e.getMessage();
      // GkeTokenProvider says 401 when Google refused the credentials, 0 when it was unreachable.
      throw e.getCode() == 401
          ? new BackendException.Unauthenticated(message, null)
          : new BackendException.Retryable(message, null);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          where
              + " cannot be looked up through the GKE API without an access token: "
              + e.getMessage());
    }
    var request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + bearer)
            .header("Accept", "application/json")
            .GET()
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new BackendException.Retryable(
          where
              + " cannot be looked up: the GKE API at "
              + config.containerApi()
              + " cannot be reached ("
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage()))
              + ")",
          null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendException.Retryable(where + ": interrupted while looking it up", null);
    }

    var code = response.statusCode();
    var says = googleSays(response.body());
    switch (code) {
      case 200 -> {}
      case 401 ->
          throw new BackendException.Unauthenticated(
              where
                  + " cannot be looked up: the GKE API refused the access token (401"
                  + says
                  + ")",
              null);
      case 403 ->
          throw new BackendException.Unauthenticated(
              where
                  + " cannot be looked up: the service account lacks IAM permission "
                  + PERMISSION
                  + " in project "
                  + config.project()
                  + " (roles/container.clusterViewer grants it), or the Kubernetes Engine API is not"
                  + " enabled there (403"
                  + says
                  + ")",
              null);
      case 404 ->
          throw new IllegalArgumentException(
              where
                  + " does not exist (404 from the GKE API"
                  + says
                  + "); check project, cluster and location (a zonal cluster needs location: its"
                  + " zone)");
      default -> {
        var message = where + " cannot be looked up: the GKE API answered " + code + says;
        // Google's own trouble or throttling passes; any other answer is this block's mistake.
        if (code >= 500 || code == 429) {
          throw new BackendException.Retryable(message, null);
        }
        throw new IllegalArgumentException(message);
      }
    }

    JsonNode cluster;
    try {
      cluster = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalArgumentException(where + ": the GKE API's answer is not JSON");
    }
    if (cluster == null || !cluster.isObject()) {
      throw new IllegalArgumentException(where + ": the GKE API's answer is not a Cluster");
    }
    var status = cluster.path("status").asText("");
    if (!USABLE.contains(status)) {
      var message = cluster.path("statusMessage").asText("");
      // PROVISIONING, DEGRADED, STOPPING ...: a cluster's state passes, so the gateway retries.
      throw new BackendException.Retryable(
          where
              + " is "
              + (status.isEmpty() ? "of no status" : status)
              + (message.isBlank() ? "" : " (" + firstLine(message) + ")")
              + ", not RUNNING: jobs cannot run there now",
          null);
    }
    var endpoint = cluster.path("endpoint").asText("").strip();
    if (endpoint.isEmpty()) {
      throw new IllegalArgumentException(where + ": the GKE API gives no endpoint");
    }
    var ca = cluster.path("masterAuth").path("clusterCaCertificate").asText("").strip();
    if (ca.isEmpty()) {
      throw new IllegalArgumentException(
          where + ": the GKE API gives no masterAuth.clusterCaCertificate");
    }
    String server;
    try {
      server = GkeEndpoint.serverUrl(bracketed(endpoint));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": the GKE API's " + e.getMessage());
    }
    var checkedCa =
        GkeEndpoint.checkCaCertificate(
            ca, where + ": the GKE API's masterAuth.clusterCaCertificate");
    LOG.info("{} is {} at {} (from the GKE API)", where, status, server);
    return new GkeEndpoint(server, checkedCa);
  }

  // GKE gives an IPv4 address or a host; an IPv6 address needs brackets to be a URL's host.
  private static String bracketed(String endpoint) {
    return endpoint.indexOf(':') != endpoint.lastIndexOf(':') && !endpoint.startsWith("[")
        ? "[" + endpoint + "]"
        : endpoint;
  }

  // Google's API errors: {"error": {"code": 404, "message": "...", "status": "NOT_FOUND"}}.
  private static String googleSays(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      var error = JSON.readTree(body).path("error");
      var status = error.path("status").asText("");
      var message = firstLine(error.path("message").asText(""));
      if (message.length() > 300) {
        message = message.substring(0, 300) + "…";
      }
      return (status.isEmpty() ? "" : " " + status) + (message.isEmpty() ? "" : ": " + message);
    } catch (IOException e) {
      return "";
    }
  }

  private static String firstLine(String text) {
    var nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
