package io.trainyard.cost.refresh;

import io.trainyard.spi.pricing.PriceFeedConfig;
import io.trainyard.spi.pricing.PriceFeedFactory;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Every refresher type on the class path: the {@link PriceRefresherFactory}s and each backend
 * module's {@link PriceFeedFactory}, keyed by {@code type:}.
 */
public final class RefresherTypes {
  private final Map<String, PriceRefresherFactory<?>> byType;

  RefresherTypes(
      Iterable<? extends PriceRefresherFactory<?>> refreshers,
      Iterable<? extends PriceFeedFactory<?>> feeds) {
    var types = new LinkedHashMap<String, PriceRefresherFactory<?>>();
    for (var factory : refreshers) {
      add(types, factory);
    }
    for (var feed : feeds) {
      add(types, feedRefreshers(feed));
    }
    this.byType = types;
  }

  /** The types this class path offers. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static RefresherTypes discover() {
    return new RefresherTypes(
        (Iterable) ServiceLoader.load(PriceRefresherFactory.class),
        (Iterable) ServiceLoader.load(PriceFeedFactory.class));
  }

  public Collection<PriceRefresherFactory<?>> all() {
    return List.copyOf(byType.values());
  }

  /**
   * A refresher for one configuration block.
   *
   * @throws IllegalArgumentException no type on the class path binds the block's class
   */
  public PriceRefresher create(PriceFeedConfig config, Clock clock) {
    for (var factory : byType.values()) {
      if (factory.configClass() == config.getClass()) {
        return create(factory, config, clock);
      }
    }
    throw new IllegalArgumentException(
        "no price refresher reads "
            + config.getClass().getSimpleName()
            + "; known types: "
            + byType.keySet());
  }

  @SuppressWarnings("unchecked")
  private static <C extends PriceFeedConfig> PriceRefresher create(
      PriceRefresherFactory<C> factory, PriceFeedConfig config, Clock clock) {
    return factory.create((C) config, clock);
  }

  private static void add(
      Map<String, PriceRefresherFactory<?>> types, PriceRefresherFactory<?> factory) {
    var before = types.putIfAbsent(factory.type(), factory);
    if (before != null) {
      throw new IllegalStateException(
          "two price refreshers claim type "
              + factory.type()
              + ": "
              + before.getClass().getName()
              + " and "
              + factory.getClass().getName());
    }
  }

  private static <C extends PriceFeedConfig> PriceRefresherFactory<C> feedRefreshers(
      PriceFeedFactory<C> feed) {
    return new PriceRefresherFactory<>() {
      @Override
      public String type() {
        return feed.type();
      }

      @Override
      public Class<C> configClass() {
        return feed.configClass();
      }

      @Override
      public PriceRefresher create(C config, Clock clock) {
        return new FeedRefresher(feed.create(config), clock);
      }
    };
  }
}
