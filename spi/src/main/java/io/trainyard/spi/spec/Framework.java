package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * The distributed-training framework of a job. Each framework names its own replica roles, the same
 * ones the Kubeflow Training Operator uses (lower-cased).
 */
public enum Framework {
  PYTORCH("pytorch", List.of("master", "worker")),
  TENSORFLOW("tensorflow", List.of("chief", "ps", "worker", "evaluator")),
  MPI("mpi", List.of("launcher", "worker")),
  XGBOOST("xgboost", List.of("master", "worker")),
  /** PaddlePaddle: masters are the parameter servers of PS mode; workers alone run collective. */
  PADDLE("paddle", List.of("master", "worker")),
  JAX("jax", List.of("worker"));

  private final String wireName;
  private final List<String> roles;

  Framework(String wireName, List<String> roles) {
    this.wireName = wireName;
    this.roles = roles;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** The roles this framework knows, in the order replicas are ranked. */
  public List<String> roles() {
    return roles;
  }

  /** Roles of which a job may have at most one replica (the coordinator). */
  public boolean isSingleton(String role) {
    return switch (this) {
      case PYTORCH, XGBOOST -> role.equals("master");
      case TENSORFLOW -> role.equals("chief");
      case MPI -> role.equals("launcher");
      // The operator's webhook caps neither: Paddle's masters are parameter servers (one
      // pod per server), and JAX has only workers (training-operator v1.9.0,
      // pkg/webhooks/{paddlepaddle,jax}).
      case PADDLE, JAX -> false;
    };
  }

  @JsonCreator
  public static Framework fromWireName(String value) {
    return WireEnums.parse(Framework.class, value, Framework::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
