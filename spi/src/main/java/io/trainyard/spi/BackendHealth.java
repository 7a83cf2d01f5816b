package io.trainyard.spi;

/** Whether a backend can take work, with a message for operators when it cannot. */
public record BackendHealth(boolean healthy, String message) {
  public static BackendHealth ok() {
    return new BackendHealth(true, "ok");
  }

  public static BackendHealth unhealthy(String message) {
    return new BackendHealth(false, message);
  }
}
