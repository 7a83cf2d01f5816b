package io.trainyard.gateway.api;

import java.time.Instant;
import java.util.List;

/**
 * One audit export in the sink ({@code GET /v1/audit/exports[/{name}]}).
 *
 * @param blobs the export's blobs, named as {@code POST /v1/audit/exports} names them ({@code
 *     name/file}); download each at {@code /v1/audit/exports/{name}/blobs/{file}}
 */
public record AuditExportView(String name, Instant createdAt, String format, List<String> blobs) {
  /** {@code GET /v1/audit/exports}, newest first. */
  public record Listing(List<AuditExportView> exports) {}
}
