package io.trainyard.audit;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One export: events {@code fromSeq..toSeq} with a filter, in a format, under {@code name/} in the
 * sink. A time-range request is turned into a seq range by the caller (the lowest and highest seq
 * in the window) with the window also in the filter: sequence order is commit order, so times are
 * not strictly increasing along the chain.
 *
 * @param name the export's folder in the sink, e.g. {@code 2026-11-30T00-00Z-daily}; letters,
 *     digits, {@code . _ -} only
 */
public record ExportRequest(
    String name, long fromSeq, long toSeq, ExportFilter filter, ExportFormat format) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  public ExportRequest {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new AuditException(
          AuditErrorCode.EXPORT_RANGE_INVALID, "export name must match " + NAME + ": " + name);
    }
    if (fromSeq < 1 || toSeq < fromSeq) {
      throw new AuditException(
          AuditErrorCode.EXPORT_RANGE_INVALID,
          "an export covers 1 <= fromSeq <= toSeq, not " + fromSeq + ".." + toSeq);
    }
    filter = filter == null ? ExportFilter.ALL : filter;
    Objects.requireNonNull(format, "format");
  }
}
