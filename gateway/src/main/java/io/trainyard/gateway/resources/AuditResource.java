package io.trainyard.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.audit.ExportFilter;
import io.trainyard.audit.ExportFormat;
import io.trainyard.gateway.api.AuditExportResponse;
import io.trainyard.gateway.api.AuditExportView;
import io.trainyard.gateway.api.AuditPage;
import io.trainyard.gateway.api.AuditPublicKey;
import io.trainyard.gateway.api.AuditVerificationView;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.audit.AuditExports;
import io.trainyard.gateway.audit.AuditKeys;
import io.trainyard.gateway.audit.AuditQuery;
import io.trainyard.gateway.audit.AuditStore;
import io.trainyard.gateway.audit.AuditVerification;
import io.trainyard.gateway.audit.ExportCatalog;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The audit log for auditors and platform admins: page through it, export it (auditors only) and
 * fetch the key its digests are signed with. Auditors reach nothing else: every other resource
 * leaves the role out.
 */
@Path("/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"auditor", "platform-admin"})
public final class AuditResource {
  private static final int MAX_PAGE = 1_000;

  private final AuditStore store;
  private final AuditExports exports;
  private static final int MAX_DAYS = 90;

  private final AuditKeys keys;
  private final ExportCatalog catalog;
  private final AuditVerification verification;

  /**
   * @param catalog the exports in the sink, to list and download
   * @param verification the chain and digests re-checked
   */
  public AuditResource(
      AuditStore store,
      AuditExports exports,
      AuditKeys keys,
      ExportCatalog catalog,
      AuditVerification verification) {
    this.store = store;
    this.exports = exports;
    this.keys = keys;
    this.catalog = catalog;
    this.verification = verification;
  }

  /**
   * The stored chain re-checked, and the digests of the last {@code days} UTC days, newest first.
   */
  @GET
  @Path("verification")
  public AuditVerificationView verification(@QueryParam("days") @DefaultValue("14") int days) {
    if (days < 1 || days > MAX_DAYS) {
      throw ApiException.field(ErrorCode.MALFORMED, "days", "must be between 1 and " + MAX_DAYS);
    }
    return verification.verify(days);
  }

  /** The exports in the sink, newest first. */
  @GET
  @Path("exports")
  @RolesAllowed("auditor")
  public AuditExportView.Listing exports() {
    return new AuditExportView.Listing(catalog.list());
  }

  @GET
  @Path("exports/{name}")
  @RolesAllowed("auditor")
  public AuditExportView export(@PathParam("name") String name) {
    return catalog.get(name);
  }

  /** One blob of an export, the bytes as stored in the sink. */
  @GET
  @Path("exports/{name}/blobs/{blob}")
  @RolesAllowed("auditor")
  @Produces(MediaType.APPLICATION_OCTET_STREAM)
  public Response download(@PathParam("name") String name, @PathParam("blob") String blob) {
    var in = catalog.open(name, blob);
    var file = blob.substring(blob.lastIndexOf('/') + 1);
    StreamingOutput body =
        out -> {
          try (in) {
            in.transferTo(out);
          }
        };
    return Response.ok(body, MediaType.APPLICATION_OCTET_STREAM)
        .header("Content-Disposition", "attachment; filename=\"" + name + "-" + file + "\"")
        .build();
  }

  /** Events after {@code afterSeq}, oldest first, filtered. */
  @GET
  public AuditPage list(
      @QueryParam("afterSeq") @DefaultValue("0") long afterSeq,
      @QueryParam("limit") @DefaultValue("100") int limit,
      @QueryParam("actor") String actor,
      @QueryParam("team") String team,
      @QueryParam("action") String action,
      @QueryParam("backend") String backend,
      @QueryParam("from") String from,
      @QueryParam("to") String to) {
    if (limit < 1 || limit > MAX_PAGE) {
      throw ApiException.field(ErrorCode.MALFORMED, "limit", "must be between 1 and " + MAX_PAGE);
    }
    if (afterSeq < 0) {
      throw ApiException.field(ErrorCode.MALFORMED, "afterSeq", "must not be negative");
    }
    var headSeq = store.head().seq();
    var query =
        new AuditQuery(actor, team, action, backend, instant("from", from), instant("to", to));
    var events = store.page(query, afterSeq, limit);
    var next = events.size() == limit ? events.get(events.size() - 1).seq() : null;
    return new AuditPage(events.stream().map(e -> e.toTree()).toList(), next, headSeq);
  }

  /**
   * Exports a time range (or the whole chain) with a filter, as {@code jsonl} (verifiable) or
   * {@code csv}, into the configured sink. Body: {@code {from, to, format, name, actors, teams,
   * actions, backends}}, every member optional.
   */
  @POST
  @Path("exports")
  @RolesAllowed("auditor")
  @Consumes(MediaType.APPLICATION_JSON)
  public Response export(JsonNode body, @Context SecurityContext security) {
    if (body != null && !body.isNull() && !body.isObject()) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "must be a JSON object");
    }
    if (body != null) {
      // A misspelt member ("team") would otherwise export everything it meant to narrow.
      body.fieldNames()
          .forEachRemaining(
              name -> {
                if (!EXPORT_FIELDS.contains(name)) {
                  throw ApiException.field(
                      ErrorCode.MALFORMED,
                      io.trainyard.gateway.logging.LogEscape.printable(name),
                      "is not a field of an export; one of " + String.join(", ", EXPORT_FIELDS));
                }
              });
    }
    var request =
        new AuditExports.Request(
            text(body, "name"),
            instant("from", text(body, "from")),
            instant("to", text(body, "to")),
            new ExportFilter(
                strings(body, "actors"),
                strings(body, "teams"),
                strings(body, "actions"),
                strings(body, "backends"),
                null,
                null),
            format(text(body, "format")));
    var result = exports.export(AuditActors.of(Caller.of(security)), request);
    var manifest = result.manifest();
    return Response.status(201)
        .entity(
            new AuditExportResponse(
                manifest.name(),
                result.blobNames(),
                manifest.toTree(),
                result.checkedAtExport().ok()))
        .build();
  }

  /** The Ed25519 public key of digests and export manifests. */
  @GET
  @Path("public-key")
  public AuditPublicKey publicKey() {
    var signer = keys.signer();
    return new AuditPublicKey("Ed25519", signer.keyId(), signer.publicKeyPem());
  }

  private static ExportFormat format(String name) {
    if (name == null) {
      return ExportFormat.JSONL;
    }
    try {
      return ExportFormat.fromWireName(name);
    } catch (IllegalArgumentException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "format", "must be jsonl or csv");
    }
  }

  private static Instant instant(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw ApiException.field(
          ErrorCode.MALFORMED, field, "must be an instant such as 2026-11-30T00:00:00Z");
    }
  }

  private static String text(JsonNode body, String field) {
    if (body == null || !body.hasNonNull(field)) {
      return null;
    }
    var value = body.get(field);
    if (!value.isTextual()) {
      throw ApiException.field(ErrorCode.MALFORMED, field, "must be a string");
    }
    return value.asText();
  }

  /** The members an export request may have (its Javadoc above). */
  private static final List<String> EXPORT_FIELDS =
      List.of("name", "from", "to", "actors", "teams", "actions", "backends", "format");

  private static Set<String> strings(JsonNode body, String field) {
    var values = new HashSet<String>();
    if (body == null || !body.hasNonNull(field)) {
      return values;
    }
    var array = body.get(field);
    if (!array.isArray()) {
      throw ApiException.field(ErrorCode.MALFORMED, field, "must be an array of strings");
    }
    for (var value : array) {
      if (!value.isTextual()) {
        throw ApiException.field(ErrorCode.MALFORMED, field, "must be an array of strings");
      }
      var problem = io.trainyard.spi.spec.InputLimits.textProblem(value.asText(), false);
      if (problem != null) {
        throw ApiException.field(ErrorCode.MALFORMED, field, problem);
      }
      values.add(value.asText());
    }
    return values;
  }
}
