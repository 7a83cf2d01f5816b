package io.trainyard.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The fields of a Google service-account key file (the JSON the Cloud console downloads) that the
 * {@code google-cloud-storage} sink needs: who signs the token grant, with which key, and where the
 * grant is posted.
 *
 * @param tokenUri the key's {@code token_uri}, or null if it has none
 */
record GoogleServiceAccountKey(String clientEmail, String privateKeyPem, String tokenUri) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether {@code credential} is a key file's JSON rather than a bare PEM private key. */
  static boolean isKeyJson(String credential) {
    return credential != null && credential.strip().startsWith("{");
  }

  /**
   * @throws AuditException {@link AuditErrorCode#CONFIG_INVALID} if it is not a service-account
   *     key; the message never quotes the JSON
   */
  static GoogleServiceAccountKey parse(String json) {
    try {
      var tree = JSON.readTree(json);
      var email = tree.path("client_email").asText("");
      var pem = tree.path("private_key").asText("");
      if (!tree.path("type").asText("").equals("service_account")
          || email.isBlank()
          || pem.isBlank()) {
        throw new AuditException(
            AuditErrorCode.CONFIG_INVALID,
            "the google-cloud-storage credential is JSON but not a service-account key"
                + " (type service_account with client_email and private_key)");
      }
      var tokenUri = tree.path("token_uri").asText("");
      return new GoogleServiceAccountKey(email, pem, tokenUri.isBlank() ? null : tokenUri);
    } catch (IOException e) {
      // Not chained: the parser's message may quote part of the key.
      throw new AuditException(
          AuditErrorCode.CONFIG_INVALID, "the google-cloud-storage credential is not valid JSON");
    }
  }

  @Override
  public String toString() {
    return "GoogleServiceAccountKey[clientEmail=" + clientEmail + ", tokenUri=" + tokenUri + "]";
  }
}
