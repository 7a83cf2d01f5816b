package io.trainyard.bench.submit;

import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.BackendConfig;
import java.math.BigDecimal;

/**
 * The bench stub backend's block: {@code {type: bench-stub, id: stub}}; the rest defaults.
 *
 * @param usdPerHour what its one placement costs (budgets see it)
 */
@JsonTypeName(StubBackendFactory.KIND)
public record StubConfig(
    String id, String region, boolean hipaaEligible, BigDecimal discountPct, BigDecimal usdPerHour)
    implements BackendConfig {
  public StubConfig {
    id = id == null || id.isBlank() ? "stub" : id;
    region = region == null || region.isBlank() ? "local" : region;
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    usdPerHour = usdPerHour == null ? BigDecimal.ZERO : usdPerHour;
  }
}
