/**
 * Trainyard's audit trail, without framework or database: events, their hash chain, secret
 * redaction, signed digests, exports through blob sinks, and the offline verifier.
 *
 * <p>How the gateway uses it:
 *
 * <ol>
 *   <li>Build an {@link io.trainyard.audit.AuditEvent} (details through {@link
 *       io.trainyard.audit.Redactor}) and chain it with {@link io.trainyard.audit.AuditChain} at
 *       the place the database gives it; store the resulting {@link
 *       io.trainyard.audit.ChainedEvent}.
 *   <li>When {@link io.trainyard.audit.DigestPolicy} says so, sign the range since the last digest
 *       with {@link io.trainyard.audit.DigestSigner#next} and store the {@link
 *       io.trainyard.audit.AuditDigest}.
 *   <li>Export with {@link io.trainyard.audit.AuditExporter} from an {@link
 *       io.trainyard.audit.AuditSource} into a {@link io.trainyard.audit.BlobSink} ({@link
 *       io.trainyard.audit.JcloudsBlobSink}).
 *   <li>Auditors run {@link io.trainyard.audit.VerifyCommand} ({@code target/trainyard-audit.jar})
 *       on the export, or call {@link io.trainyard.audit.AuditVerifier}.
 * </ol>
 *
 * <p>Rotating the signing key: digests name the key that signed them ({@code keyId}), and the
 * digest after a rotation links to the last one signed before it as always. Give the exporter the
 * previous public keys ({@link io.trainyard.audit.DigestKeyRing}); an export whose digests need one
 * of them carries them in {@code digest-keys.pem}, and auditors name every key they trust ({@code
 * --key-id} repeated, or a {@code --public-key} file holding several keys).
 *
 * <p>Formats, once written, are evidence and must not change: the canonical event form (see {@link
 * io.trainyard.audit.AuditEvent}), the chain rule (see {@link io.trainyard.audit.AuditChain}), the
 * digest and manifest documents with their {@code type} names, and the file names of an export.
 */
package io.trainyard.audit;
