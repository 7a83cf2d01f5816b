package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.glassfish.jersey.server.model.Resource;
import org.junit.jupiter.api.Test;

/** The hand-written API description lists exactly what Jersey serves: no more, no less. */
class OpenApiTest {

  @Test
  void describesEveryResourceMethodAndNothingElse() throws Exception {
    var served = new TreeSet<String>();
    for (var type :
        List.of(
            JobsResource.class,
            QuotesResource.class,
            QueueResource.class,
            BackendsResource.class,
            OpenApiResource.class,
            DevIssuerResource.class,
            DevSignInResource.class,
            JobDecisionResource.class,
            TeamsResource.class,
            SpendResource.class,
            WebhooksResource.class,
            AuditResource.class,
            AlgorithmsResource.class,
            MetricsResource.class,
            MetricsResource.Compare.class)) {
      collect(Resource.from(type), "", served);
    }
    var described = new TreeSet<String>();
    try (var in = OpenApiResource.class.getResourceAsStream("/openapi.json")) {
      var doc = new ObjectMapper().readTree(in);
      doc.get("paths")
          .fields()
          .forEachRemaining(
              path ->
                  path.getValue()
                      .fieldNames()
                      .forEachRemaining(
                          verb ->
                              described.add(verb.toUpperCase(Locale.ROOT) + " " + path.getKey())));
    }
    assertThat(described).isEqualTo(served);
  }

  private static void collect(Resource resource, String prefix, TreeSet<String> out) {
    var path = join(prefix, resource.getPath());
    for (var method : resource.getResourceMethods()) {
      out.add(method.getHttpMethod() + " " + path);
    }
    for (var child : resource.getChildResources()) {
      collect(child, path, out);
    }
  }

  private static String join(String prefix, String path) {
    if (path == null || path.isEmpty()) {
      return prefix;
    }
    var p = (prefix + "/" + path).replaceAll("/+", "/");
    return p.endsWith("/") && p.length() > 1 ? p.substring(0, p.length() - 1) : p;
  }
}
