package io.trainyard.cost;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Dollars as people read them in messages: two decimals. */
final class Money {
  private Money() {}

  static String show(BigDecimal usd) {
    return usd == null ? "0.00" : usd.setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
