package io.trainyard.gateway.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;

/**
 * What every span started under a request or a reconciler step carries: the request id (known only
 * once Jersey has read it, after the server span started, hence mutable) and the job id. Kept in
 * the OpenTelemetry {@link Context}, so spans the backends start through the API alone get them too
 * ({@link SpanTagsProcessor} copies them at start).
 */
final class SpanTags {
  static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("trainyard.request.id");
  static final AttributeKey<String> JOB_ID = AttributeKey.stringKey("trainyard.job.id");
  static final AttributeKey<String> BACKEND_ID = AttributeKey.stringKey("trainyard.backend.id");
  static final AttributeKey<String> BACKEND_KIND = AttributeKey.stringKey("trainyard.backend.kind");
  static final AttributeKey<String> TEAM = AttributeKey.stringKey("trainyard.team");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("trainyard.job.attempt");
  static final AttributeKey<String> STATE = AttributeKey.stringKey("trainyard.job.state");

  private static final ContextKey<SpanTags> KEY = ContextKey.named("trainyard.span-tags");

  private volatile String requestId;
  private volatile String jobId;

  static SpanTags forJob(String jobId) {
    var tags = new SpanTags();
    tags.jobId = jobId;
    return tags;
  }

  static SpanTags current() {
    return Context.current().get(KEY);
  }

  static SpanTags of(Context context) {
    return context.get(KEY);
  }

  Context storeIn(Context context) {
    return context.with(KEY, this);
  }

  String requestId() {
    return requestId;
  }

  void requestId(String id) {
    this.requestId = id;
  }

  String jobId() {
    return jobId;
  }
}
