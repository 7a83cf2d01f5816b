package io.trainyard.gateway.api;

/**
 * The key digests and export manifests are signed with, for auditors. Compare {@code keyId} with a
 * copy obtained out of band before trusting it.
 *
 * @param keyId hex SHA-256 of the key's X.509 DER, as {@code --key-id} of the verifier takes it
 */
public record AuditPublicKey(String algorithm, String keyId, String publicKeyPem) {}
