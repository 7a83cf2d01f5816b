package io.trainyard.spi;

/** A registration that can be cancelled. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {
  Subscription NONE = () -> {};

  @Override
  void close();
}
