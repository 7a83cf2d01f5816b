package io.trainyard.gateway.tracing;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/** Puts the request id and job id of the span's context on every span as it starts. */
final class SpanTagsProcessor implements SpanProcessor {
  @Override
  public void onStart(Context parent, ReadWriteSpan span) {
    var tags = SpanTags.of(parent);
    if (tags == null) {
      return;
    }
    var requestId = tags.requestId();
    if (requestId != null) {
      span.setAttribute(SpanTags.REQUEST_ID, requestId);
    }
    var jobId = tags.jobId();
    if (jobId != null && span.getAttribute(SpanTags.JOB_ID) == null) {
      span.setAttribute(SpanTags.JOB_ID, jobId);
    }
  }

  @Override
  public boolean isStartRequired() {
    return true;
  }

  @Override
  public void onEnd(ReadableSpan span) {}

  @Override
  public boolean isEndRequired() {
    return false;
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
