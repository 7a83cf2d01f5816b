package io.trainyard.bench.audit;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The machine's raw SHA-256 speed, printed beside the audit numbers for scale. */
final class Sha256Rate {
  private Sha256Rate() {}

  static double megabytesPerSecond() throws NoSuchAlgorithmException {
    var sha = MessageDigest.getInstance("SHA-256");
    var block = new byte[1 << 20];
    for (int i = 0; i < 64; i++) {
      sha.update(block); // warm-up
    }
    long start = System.nanoTime();
    int blocks = 256;
    for (int i = 0; i < blocks; i++) {
      sha.update(block);
    }
    sha.digest();
    return blocks / ((System.nanoTime() - start) / 1e9);
  }

  static double hashesPerSecond(int size) throws NoSuchAlgorithmException {
    var sha = MessageDigest.getInstance("SHA-256");
    var data = new byte[size];
    for (int i = 0; i < 200_000; i++) {
      sha.digest(data); // warm-up
    }
    int n = 1_000_000;
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      data[0] = (byte) i;
      sha.digest(data);
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }
}
