package io.trainyard.gateway.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What {@code POST /v1/audit/exports} wrote.
 *
 * @param blobs the blob names written, manifest last
 * @param manifest the signed manifest, as in {@code manifest.json}
 * @param chainIntactAtExport whether the exporter found the stored chain intact while writing
 */
public record AuditExportResponse(
    String name, List<String> blobs, ObjectNode manifest, boolean chainIntactAtExport) {}
