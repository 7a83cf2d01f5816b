package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** US-dollar amounts as the gateway sends them (numbers, or strings to keep them exact). */
final class Usd {
  private Usd() {}

  /**
   * Two decimals, or up to four below a dollar so that cheap hourly prices do not show as 0.00.
   * Returns null for a missing amount, so a table shows "-".
   */
  static String format(JsonNode amount) {
    if (amount == null || amount.isNull() || amount.isMissingNode()) {
      return null;
    }
    BigDecimal value;
    try {
      value = amount.isNumber() ? amount.decimalValue() : new BigDecimal(amount.asText().strip());
    } catch (NumberFormatException e) {
      return amount.asText();
    }
    if (value.signum() == 0 || value.abs().compareTo(BigDecimal.ONE) >= 0) {
      return value.setScale(2, RoundingMode.HALF_UP).toPlainString();
    }
    var fine = value.setScale(4, RoundingMode.HALF_UP).stripTrailingZeros();
    return (fine.scale() < 2 ? fine.setScale(2, RoundingMode.UNNECESSARY) : fine).toPlainString();
  }
}
