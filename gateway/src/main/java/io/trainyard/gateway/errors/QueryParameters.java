package io.trainyard.gateway.errors;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Holds every request to the query parameters its endpoint declares, each given once (a list
 * parameter as often as wanted) and with a value, and to a path without matrix parameters. Jersey
 * itself ignores an unknown parameter (a misspelt {@code ?dryrun=true} submitted a real job), takes
 * the first of a repeated one ({@code ?limit=1&limit=5000}), reads an empty one as its default, and
 * reads {@code /v1/jobs/abc;x=1} as job {@code abc}: each is a 400 naming the parameter here. Runs
 * after authentication, so an anonymous caller learns nothing of an endpoint's parameters.
 */
public final class QueryParameters implements DynamicFeature {
  /**
   * On an endpoint whose callers may add parameters of their own and must be ignored, e.g. an OAuth
   * authorization endpoint (RFC 6749 section 3.1: unrecognised parameters are ignored).
   */
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.TYPE, ElementType.METHOD})
  public @interface Lenient {}

  @Override
  public void configure(ResourceInfo resource, FeatureContext context) {
    var method = resource.getResourceMethod();
    if (method == null
        || method.isAnnotationPresent(Lenient.class)
        || resource.getResourceClass().isAnnotationPresent(Lenient.class)) {
      return;
    }
    var single = new TreeSet<String>();
    var repeatable = new TreeSet<String>();
    for (var parameter : method.getParameters()) {
      var query = parameter.getAnnotation(QueryParam.class);
      if (query != null) {
        (Collection.class.isAssignableFrom(parameter.getType()) ? repeatable : single)
            .add(query.value());
      }
    }
    context.register(new Check(single, repeatable));
  }

  @Priority(Priorities.USER)
  private static final class Check implements ContainerRequestFilter {
    private final Set<String> single;
    private final Set<String> repeatable;
    private final String takes;

    Check(Set<String> single, Set<String> repeatable) {
      this.single = single;
      this.repeatable = repeatable;
      var names = new TreeSet<>(single);
      names.addAll(repeatable);
      this.takes = names.isEmpty() ? "none" : String.join(", ", names);
    }

    @Override
    public void filter(ContainerRequestContext request) {
      var uri = request.getUriInfo();
      for (var segment : uri.getPathSegments(false)) {
        var matrix = segment.getMatrixParameters().keySet();
        if (!matrix.isEmpty()) {
          throw ApiException.field(
              ErrorCode.MALFORMED,
              "path",
              "has a matrix parameter (;"
                  + ErrorText.printable(matrix.iterator().next())
                  + "): the API takes none");
        }
      }
      var given = uri.getQueryParameters(true);
      if (given.isEmpty()) {
        return;
      }
      for (var entry : given.entrySet()) {
        var name = entry.getKey();
        if (!single.contains(name) && !repeatable.contains(name)) {
          throw ApiException.field(
              ErrorCode.MALFORMED,
              ErrorText.printable(name),
              "is not a parameter of this endpoint; it takes " + takes);
        }
        if (entry.getValue().size() > 1 && single.contains(name)) {
          throw ApiException.field(
              ErrorCode.MALFORMED, name, "is given more than once; give it once");
        }
        if (entry.getValue().stream().anyMatch(String::isEmpty)) {
          throw ApiException.field(
              ErrorCode.MALFORMED, name, "has no value; give one or leave the parameter out");
        }
      }
    }
  }
}
