package io.trainyard.gateway.backends;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.TrainingBackend;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway's own wrappers of a backend (traces, call metrics) declare every method of the SPI: a
 * default method they did not forward would run the SPI's default instead of the backend's own (as
 * {@code cancelAttempt} did for Kubernetes, which needs the attempt's kind and namespace, not its
 * name alone).
 */
class BackendWrappersTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "io.trainyard.gateway.tracing.TracedBackend",
        "io.trainyard.gateway.metrics.BackendCallMetrics$Measured"
      })
  void aWrapperDeclaresEveryMethodOfTheSpi(String wrapper) throws ClassNotFoundException {
    var type = Class.forName(wrapper);
    var missing =
        Arrays.stream(TrainingBackend.class.getMethods())
            .filter(m -> !Modifier.isStatic(m.getModifiers()))
            .filter(m -> !declares(type, m))
            .map(Method::getName)
            .toList();
    assertThat(missing).as(wrapper + " leaves these to the SPI's defaults").isEmpty();
  }

  private static boolean declares(Class<?> type, Method method) {
    try {
      type.getDeclaredMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
