package io.trainyard.spi.pricing;

/** A price API could not be read; the message says which and why, never a credential. */
public class PriceFeedException extends RuntimeException {
  public PriceFeedException(String message, Throwable cause) {
    super(message, cause);
  }
}
