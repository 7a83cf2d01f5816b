package io.trainyard.gateway.health;

import com.codahale.metrics.health.HealthCheck;
import io.trainyard.gateway.backends.BackendRegistry;

/**
 * One backend's health on the admin port, as the registry's last background probe found it: a
 * health check that called every backend would let whoever polls it load them all.
 */
public final class BackendHealthCheck extends HealthCheck {
  private final BackendRegistry backends;
  private final String id;

  public BackendHealthCheck(BackendRegistry backends, String id) {
    this.backends = backends;
    this.id = id;
  }

  @Override
  protected Result check() {
    var health = backends.health(id);
    return health.healthy() ? Result.healthy(health.message()) : Result.unhealthy(health.message());
  }
}
