package io.trainyard.backend.gke;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Google credentials a GKE backend authenticates with: a service-account key file, or
 * application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's file, the metadata
 * server of GCE/GKE), scoped to {@value #CLOUD_PLATFORM}.
 *
 * <p>Errors name the file and what is wrong with it, and never carry the file's content: a message
 * or a cause that quoted the JSON could quote the private key into a log.
 */
final class GkeCredentials {
  /** The scope GKE's API servers accept tokens of. */
  static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";

  private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final ObjectMapper JSON = new ObjectMapper();

  private GkeCredentials() {}

  /**
   * Credentials for the block: its {@code credentialsFile}, else application default credentials.
   *
   * @throws IllegalArgumentException the key file is missing, unreadable or not a service-account
   *     key; or, without one, no application default credentials are found
   */
  static GoogleCredentials of(GkeConfig config) {
    var file = config.credentialsPath();
    return file != null ? fromKeyFile(file) : applicationDefault();
  }

  /**
   * A service-account key JSON, as the Cloud console or {@code gcloud iam keys create} writes it.
   */
  static GoogleCredentials fromKeyFile(Path file) {
    var what = "credentialsFile " + file;
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException(
          what + " cannot be read (missing, or not a readable file)");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          what + " cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    JsonNode key;
    try {
      key = JSON.readTree(bytes);
    } catch (JsonProcessingException e) {
      // Jackson's message quotes the offending token: keep only where it is.
      var at = e.getLocation();
      throw new IllegalArgumentException(
          what
              + " is not JSON"
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    } catch (IOException e) {
      throw new IllegalArgumentException(what + " is not JSON");
    }
    if (key == null || !key.isObject()) {
      throw new IllegalArgumentException(what + " is not a JSON object");
    }
    var type = key.path("type").asText("");
    if (!type.equals("service_account")) {
      throw new IllegalArgumentException(
          what
              + " is not a service-account key (its type is "
              + (type.matches("[a-z_]{1,40}") ? type : "missing or unknown")
              + ", not service_account)");
    }
    for (var field : List.of("client_email", "private_key")) {
      if (key.path(field).asText("").isBlank()) {
        throw new IllegalArgumentException(what + " lacks " + field);
      }
    }
    if (!key.path("private_key").asText().strip().startsWith(PKCS8_BEGIN)) {
      throw new IllegalArgumentException(what + ": private_key is not a PKCS#8 PEM key");
    }
    ServiceAccountCredentials credentials;
    try {
      credentials = ServiceAccountCredentials.fromStream(new ByteArrayInputStream(bytes));
    } catch (IOException | RuntimeException e) {
      // google-auth's words may quote the key's fields; say what we checked instead.
      throw new IllegalArgumentException(
          what + " is not a usable service-account key (private_key or token_uri unreadable)");
    }
    return credentials.createScoped(List.of(CLOUD_PLATFORM));
  }

  /** Application default credentials, scoped; resolved now so a missing setup fails at start. */
  static GoogleCredentials applicationDefault() {
    GoogleCredentials credentials;
    try {
      credentials = GoogleCredentials.getApplicationDefault();
    } catch (IOException | RuntimeException e) {
      var message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      var nl = message.indexOf('\n');
      throw new IllegalArgumentException(
          "credentialsFile is absent and application default credentials cannot be used: "
              + (nl < 0 ? message : message.substring(0, nl)));
    }
    return credentials.createScopedRequired()
        ? credentials.createScoped(List.of(CLOUD_PLATFORM))
        : credentials;
  }
}
