package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditErrorCode;
import io.trainyard.audit.AuditException;
import io.trainyard.audit.AuditExporter;
import io.trainyard.audit.ExportFilter;
import io.trainyard.audit.ExportFormat;
import io.trainyard.audit.ExportRequest;
import io.trainyard.audit.ExportResult;
import io.trainyard.audit.Outcome;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports a time range of the chain through the configured blob sink, on demand ({@code POST
 * /v1/audit/exports}) or for {@link DailyExports}. Like Vault, the access is audited before any
 * data leaves: the {@code audit.export} event is written first (and the export refused when it
 * cannot be, with fail-closed), and a failed export is audited again with its outcome. Thread-safe.
 */
public final class AuditExports {
  private static final Logger LOG = LoggerFactory.getLogger(AuditExports.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /**
   * What to export: events with time in {@code [from, to)} (either may be null: open) matching
   * {@code filter} in full, the others of the seq range as stubs.
   *
   * @param name the export's folder in the sink; null for a generated one
   */
  public record Request(
      String name, Instant from, Instant to, ExportFilter filter, ExportFormat format) {}

  private final AuditStore store;
  private final AuditLog log;
  private final AuditExporter exporter;
  private final String sinkDescription;
  private final Clock clock;

  /**
   * @param sinkDescription where exports go, for the audit event (never a credential)
   */
  public AuditExports(
      AuditStore store, AuditLog log, AuditExporter exporter, String sinkDescription, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.log = Objects.requireNonNull(log, "log");
    this.exporter = Objects.requireNonNull(exporter, "exporter");
    this.sinkDescription = sinkDescription;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * @throws ApiException NOT_FOUND when no event lies in the range, AUDIT_UNAVAILABLE when the
   *     export cannot be audited, BACKEND_UNAVAILABLE when the sink refuses
   */
  public ExportResult export(AuditActor actor, Request request) {
    var range =
        request.from() == null && request.to() == null
            ? wholeChain()
            : store.seqRange(
                request.from() == null ? Instant.EPOCH : request.from(),
                request.to() == null ? Instant.parse("9999-12-31T00:00:00Z") : request.to());
    if (range.isEmpty()) {
      throw new ApiException(ErrorCode.NOT_FOUND, "no audit events in that time range");
    }
    var base = request.filter() == null ? ExportFilter.ALL : request.filter();
    var name = request.name() != null ? request.name() : generatedName();
    ExportRequest export;
    try {
      var filter =
          new ExportFilter(
              base.actors(),
              base.teams(),
              base.actions(),
              base.backends(),
              request.from(),
              request.to());
      export = new ExportRequest(name, range.get()[0], range.get()[1], filter, request.format());
    } catch (AuditException e) {
      // The name or the window: the only parts the caller chose that can be wrong here.
      throw new ApiException(ErrorCode.MALFORMED, e.getMessage());
    }
    log.record(event(actor, export, Outcome.SUCCESS, null));
    try {
      var result = exporter.export(export, store);
      if (!result.checkedAtExport().ok()) {
        // The export carries the finding for the auditor; operators must hear of it now.
        LOG.error(
            "the stored audit chain is broken (export {}): {}",
            name,
            result.checkedAtExport().firstProblem().orElseThrow());
      }
      return result;
    } catch (AuditException e) {
      log.record(event(actor, export, Outcome.FAILURE, e.code().name()));
      if (e.code().category() == AuditErrorCode.Category.EXTERNAL) {
        LOG.warn("audit export {} failed: {}", name, e.getMessage());
        throw new ApiException(
            ErrorCode.BACKEND_UNAVAILABLE, "the export store cannot be written; try again");
      }
      throw e;
    }
  }

  private java.util.Optional<long[]> wholeChain() {
    long head = store.head().seq();
    return head == 0 ? java.util.Optional.empty() : java.util.Optional.of(new long[] {1, head});
  }

  private String generatedName() {
    return "export-"
        + STAMP.format(clock.instant())
        + "-"
        + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0x100000));
  }

  private AuditEntry event(AuditActor actor, ExportRequest export, Outcome outcome, String error) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("name", export.name());
    details.put("fromSeq", export.fromSeq());
    details.put("toSeq", export.toSeq());
    details.put("format", export.format().wireName());
    details.put("sink", sinkDescription);
    var filter = export.filter();
    var f = details.putObject("filter");
    filter.actors().stream().sorted().forEach(f.putArray("actors")::add);
    filter.teams().stream().sorted().forEach(f.putArray("teams")::add);
    filter.actions().stream().sorted().forEach(f.putArray("actions")::add);
    filter.backends().stream().sorted().forEach(f.putArray("backends")::add);
    f.put("from", filter.from() == null ? null : filter.from().toString());
    f.put("to", filter.to() == null ? null : filter.to().toString());
    if (error != null) {
      details.put("error", error);
    }
    return AuditEntry.builder(
            clock.instant(), actor, AuditActions.AUDIT_EXPORT, "audit/export/" + export.name())
        .outcome(outcome)
        .details(details)
        .build();
  }
}
