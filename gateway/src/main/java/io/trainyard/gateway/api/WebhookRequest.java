package io.trainyard.gateway.api;

import java.util.List;

/**
 * The body of {@code PUT /v1/teams/{team}/webhooks/{id}}. Absent fields keep their stored values on
 * a change; on creation {@code eventTypes} defaults to the ends of jobs, {@code enabled} to true
 * and {@code secret} to a generated one, answered once.
 */
public record WebhookRequest(String url, List<String> eventTypes, Boolean enabled, String secret) {}
