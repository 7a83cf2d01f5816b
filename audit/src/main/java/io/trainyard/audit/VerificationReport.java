package io.trainyard.audit;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a verification found. It is {@link #ok()} only when there is no finding at all.
 *
 * @param eventsChecked full events whose content was hashed and chained
 * @param stubsChecked {@code {seq, eventHash, hash}} stubs of filtered-out events that were chained
 * @param digestsChecked signed digests whose signature and last hash were checked
 * @param keyId the public key the signatures were checked against (for an export: the key of its
 *     manifest), or null if none was
 * @param digestKeyIds the keys of the digests that verified, sorted: more than one when the range
 *     spans a rotation of the signing key
 * @param findings the problems, in sequence order (those about the whole export first)
 * @param findingsLeftOut problems found beyond the first {@value AuditChainVerifier#MAX_FINDINGS}
 * @param notes what the auditor should know although it is not a failure
 */
public record VerificationReport(
    long eventsChecked,
    long stubsChecked,
    int digestsChecked,
    String keyId,
    List<String> digestKeyIds,
    List<Finding> findings,
    long findingsLeftOut,
    List<String> notes) {

  private static final Comparator<Finding> ORDER = Comparator.comparingLong(Finding::seq);

  public VerificationReport {
    digestKeyIds = List.copyOf(digestKeyIds);
    findings = findings.stream().sorted(ORDER).toList();
    notes = List.copyOf(notes);
  }

  /** A report that names no digest keys beyond {@code keyId}. */
  public VerificationReport(
      long eventsChecked,
      long stubsChecked,
      int digestsChecked,
      String keyId,
      List<Finding> findings,
      long findingsLeftOut,
      List<String> notes) {
    this(
        eventsChecked,
        stubsChecked,
        digestsChecked,
        keyId,
        keyId == null || digestsChecked == 0 ? List.of() : List.of(keyId),
        findings,
        findingsLeftOut,
        notes);
  }

  public boolean ok() {
    return findings.isEmpty() && findingsLeftOut == 0;
  }

  /** The lowest sequence number any finding puts in doubt. */
  public OptionalLong firstBadSeq() {
    return findings.stream().filter(Finding::concernsAnEvent).mapToLong(Finding::seq).findFirst();
  }

  /** The finding to read first: the one about the lowest seq, else one about the export. */
  public Optional<Finding> firstProblem() {
    var aboutEvent = findings.stream().filter(Finding::concernsAnEvent).findFirst();
    return aboutEvent.isPresent() ? aboutEvent : findings.stream().findFirst();
  }

  /** A copy with more findings and notes, e.g. those about the export around a chain. */
  VerificationReport with(List<Finding> moreFindings, List<String> moreNotes) {
    var allFindings = new java.util.ArrayList<>(findings);
    allFindings.addAll(moreFindings);
    var allNotes = new java.util.ArrayList<>(notes);
    allNotes.addAll(moreNotes);
    return new VerificationReport(
        eventsChecked,
        stubsChecked,
        digestsChecked,
        keyId,
        digestKeyIds,
        allFindings,
        findingsLeftOut,
        allNotes);
  }

  /** A copy that names {@code manifestKeyId} as the key the export was checked against. */
  VerificationReport withKeyId(String manifestKeyId) {
    return new VerificationReport(
        eventsChecked,
        stubsChecked,
        digestsChecked,
        manifestKeyId,
        digestKeyIds,
        findings,
        findingsLeftOut,
        notes);
  }

  /** The report as an auditor reads it. */
  public String toText() {
    var out = new StringBuilder();
    out.append(ok() ? "OK" : "FAILED").append('\n');
    out.append("events checked: ").append(eventsChecked);
    out.append(" (+ ").append(stubsChecked).append(" stubs of filtered-out events)\n");
    out.append("digests checked: ").append(digestsChecked).append('\n');
    out.append("public key id: ").append(Objects.requireNonNullElse(keyId, "none")).append('\n');
    if (!digestKeyIds.isEmpty() && !digestKeyIds.equals(List.of(String.valueOf(keyId)))) {
      out.append("digest key ids: ").append(String.join(", ", digestKeyIds)).append('\n');
    }
    firstBadSeq().ifPresent(seq -> out.append("first bad seq: ").append(seq).append('\n'));
    firstProblem().ifPresent(f -> out.append("first problem: ").append(f).append('\n'));
    if (findings.size() > 1 || findingsLeftOut > 0) {
      out.append("all problems:\n");
      findings.forEach(f -> out.append("  ").append(f).append('\n'));
      if (findingsLeftOut > 0) {
        out.append("  ... and ").append(findingsLeftOut).append(" more\n");
      }
    }
    notes.forEach(n -> out.append("note: ").append(n).append('\n'));
    return out.toString();
  }
}
