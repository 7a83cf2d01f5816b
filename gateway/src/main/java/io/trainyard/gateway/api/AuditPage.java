package io.trainyard.gateway.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A page of {@code GET /v1/audit}: events as they are hashed and exported, each with {@code
 * eventHash} and {@code hash}.
 *
 * @param nextAfterSeq pass as {@code afterSeq} for the next page; null when this page is the last
 * @param headSeq the chain's last seq when the page was read
 */
public record AuditPage(List<ObjectNode> events, Long nextAfterSeq, long headSeq) {}
