package io.trainyard.audit;

import java.util.List;

/**
 * What an export wrote.
 *
 * @param checkedAtExport the chain as the exporter read it, checked while writing; a problem here
 *     means the database itself holds a broken chain, which the gateway should alert on
 * @param blobNames the blobs written, manifest last
 */
public record ExportResult(
    ExportManifest manifest, VerificationReport checkedAtExport, List<String> blobNames) {
  public ExportResult {
    blobNames = List.copyOf(blobNames);
  }
}
