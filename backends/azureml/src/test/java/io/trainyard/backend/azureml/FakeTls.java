package io.trainyard.backend.azureml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1, made once per JVM with the JDK's own {@code keytool}:
 * azure-core's bearer token policy and MSAL both refuse plain http, so the fakes speak TLS, and the
 * test's HTTP client trusts exactly this certificate.
 */
final class FakeTls {
  private static final char[] PASSWORD = "fake-tls".toCharArray();
  private static KeyStore keyStore;

  private FakeTls() {}

  /** The server side: key and certificate. */
  static synchronized SSLContext server() {
    try {
      var kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keyStore(), PASSWORD);
      var context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The client side: trusts the fake's certificate only. */
  static synchronized SSLContext client() {
    try {
      var tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(keyStore());
      var context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyStore keyStore() {
    if (keyStore != null) {
      return keyStore;
    }
    try {
      var dir = Files.createTempDirectory("azureml-fake-tls");
      var file = dir.resolve("fake.p12");
      var keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
      var process =
          new ProcessBuilder(
                  keytool,
                  "-genkeypair",
                  "-alias",
                  "fake",
                  "-keyalg",
                  "RSA",
                  "-keysize",
                  "2048",
                  "-validity",
                  "2",
                  "-dname",
                  "CN=127.0.0.1",
                  "-ext",
                  "san=ip:127.0.0.1",
                  "-storetype",
                  "PKCS12",
                  "-keystore",
                  file.toString(),
                  "-storepass",
                  new String(PASSWORD),
                  "-keypass",
                  new String(PASSWORD))
              .redirectErrorStream(true)
              .start();
      var output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("keytool failed: " + output);
      }
      var store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(file)) {
        store.load(in, PASSWORD);
      }
      Files.delete(file);
      Files.delete(dir);
      keyStore = store;
      return store;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make the fake's certificate", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
