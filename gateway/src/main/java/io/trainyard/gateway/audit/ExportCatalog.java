package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditErrorCode;
import io.trainyard.audit.AuditException;
import io.trainyard.audit.BlobSink;
import io.trainyard.audit.ExportManifest;
import io.trainyard.gateway.api.AuditExportView;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The audit exports in the blob sink, as the sink holds them: a folder per export with its {@code
 * manifest.json} (folders without one — half-written, or not exports — are not listed). Downloads
 * stream the stored bytes untouched. Thread-safe.
 */
public final class ExportCatalog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private final BlobSink sink;

  public ExportCatalog(BlobSink sink) {
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /** Every export, newest first. */
  public List<AuditExportView> list() {
    var byExport = new LinkedHashMap<String, List<String>>();
    for (var blob : sinkCall(() -> sink.list(""))) {
      int slash = blob.indexOf('/');
      if (slash > 0 && blob.indexOf('/', slash + 1) < 0) {
        byExport.computeIfAbsent(blob.substring(0, slash), k -> new ArrayList<>()).add(blob);
      }
    }
    var views = new ArrayList<AuditExportView>();
    byExport.forEach(
        (name, blobs) -> {
          if (blobs.contains(name + "/" + ExportManifest.FILE_NAME)) {
            manifest(name).ifPresent(m -> views.add(view(m, blobs)));
          }
        });
    views.sort(
        Comparator.comparing(AuditExportView::createdAt)
            .reversed()
            .thenComparing(AuditExportView::name));
    return views;
  }

  /** One export; 404 when there is none of that name. */
  public AuditExportView get(String name) {
    requireName(name);
    var blobs = sinkCall(() -> sink.list(name + "/"));
    return manifest(name)
        .map(m -> view(m, blobs))
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no audit export " + name));
  }

  /**
   * A blob of an export, as stored; 404 when the export has no such blob.
   *
   * @param file the blob's name in the export ({@code events.jsonl}), or its full name
   */
  public InputStream open(String name, String file) {
    var export = get(name);
    var full = file.startsWith(name + "/") ? file : name + "/" + file;
    if (!export.blobs().contains(full)) {
      throw ApiException.field(
          ErrorCode.NOT_FOUND, "blob", "export " + name + " has no blob " + file);
    }
    return sinkCall(() -> sink.open(full));
  }

  private Optional<ExportManifest> manifest(String name) {
    var blob = name + "/" + ExportManifest.FILE_NAME;
    try (var in = sink.open(blob)) {
      return Optional.of(ExportManifest.fromTree(JSON.readTree(in)));
    } catch (AuditException e) {
      if (e.code() == AuditErrorCode.BLOB_NOT_FOUND) {
        return Optional.empty();
      }
      throw unavailable();
    } catch (IOException | IllegalArgumentException e) {
      // Not a manifest this gateway wrote: not an export to list.
      return Optional.empty();
    }
  }

  private static AuditExportView view(ExportManifest m, List<String> blobs) {
    return new AuditExportView(
        m.name(), m.createdAt(), m.format().wireName(), blobs.stream().sorted().toList());
  }

  private static void requireName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw ApiException.field(
          ErrorCode.MALFORMED, "name", "must be letters, digits, '.', '_' or '-' (an export name)");
    }
  }

  private static <T> T sinkCall(Supplier<T> call) {
    try {
      return call.get();
    } catch (AuditException e) {
      if (e.code() == AuditErrorCode.BLOB_NOT_FOUND) {
        throw new ApiException(ErrorCode.NOT_FOUND, "no such blob in the export store");
      }
      throw unavailable();
    }
  }

  private static ApiException unavailable() {
    return new ApiException(
        ErrorCode.BACKEND_UNAVAILABLE, "the export store cannot be read; try again");
  }
}
