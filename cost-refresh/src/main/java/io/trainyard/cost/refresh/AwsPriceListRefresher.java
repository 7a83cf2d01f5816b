package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.pricing.model.Filter;
import software.amazon.awssdk.services.pricing.model.FilterType;
import software.amazon.awssdk.services.pricing.model.GetProductsRequest;

/**
 * Re-prices the catalog's {@code aws/ec2} and {@code aws/sagemaker} instance rows from the AWS
 * Price List Query API ({@code GetProducts}), on-demand only: the API has no spot prices, so spot
 * prices are kept and their source is carried along.
 *
 * <p>One query per instance type, across all regions (the products carry {@code regionCode}), paged
 * through {@code NextToken}:
 *
 * <ul>
 *   <li>EC2 ({@code AmazonEC2}): {@code instanceType}, {@code operatingSystem=Linux}, {@code
 *       tenancy=Shared}, {@code preInstalledSw=NA}, {@code capacitystatus=Used} — the plain
 *       on-demand Linux price that the catalog's EC2 rows hold.
 *   <li>SageMaker ({@code AmazonSageMaker}): {@code instanceName=ml.*}, {@code component=Training}
 *       — the training usage type ({@code <region>-Train:ml.*}), not hosting or notebooks.
 * </ul>
 *
 * A region whose answer holds more than one distinct price for the type is left alone with a
 * warning rather than guessed. Thread-safety: as {@link PriceRefresher}; the SDK client is
 * thread-safe.
 */
public final class AwsPriceListRefresher implements PriceRefresher {
  public static final String NAME = "aws-price-list";
  static final String SOURCE = "aws-price-list-api";

  /** The two services the catalog prices from AWS, and how each asks for its rows' products. */
  enum Service {
    EC2("ec2", "AmazonEC2") {
      @Override
      List<Filter> filters(String instanceType) {
        return List.of(
            term("instanceType", instanceType),
            term("operatingSystem", "Linux"),
            term("tenancy", "Shared"),
            term("preInstalledSw", "NA"),
            term("capacitystatus", "Used"));
      }
    },
    SAGEMAKER("sagemaker", "AmazonSageMaker") {
      @Override
      List<Filter> filters(String instanceType) {
        return List.of(term("instanceName", instanceType), term("component", "Training"));
      }
    };

    final String catalogService;
    final String serviceCode;

    Service(String catalogService, String serviceCode) {
      this.catalogService = catalogService;
      this.serviceCode = serviceCode;
    }

    abstract List<Filter> filters(String instanceType);

    private static Filter term(String field, String value) {
      return Filter.builder().type(FilterType.TERM_MATCH).field(field).value(value).build();
    }
  }

  private final PricingClient client;
  private final Clock clock;

  public AwsPriceListRefresher(AwsPriceListConfig config) {
    this(config, Clock.systemUTC());
  }

  /**
   * @param clock gives the refresh date (UTC)
   */
  public AwsPriceListRefresher(AwsPriceListConfig config, Clock clock) {
    this(client(config), clock);
  }

  AwsPriceListRefresher(PricingClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  static PricingClient client(AwsPriceListConfig config) {
    var builder =
        PricingClient.builder()
            .region(Region.of(config.region()))
            .httpClientBuilder(ApacheHttpClient.builder());
    if (config.endpoint() != null) {
      builder.endpointOverride(config.endpoint());
    }
    if (config.accessKeyId() != null) {
      builder.credentialsProvider(
          StaticCredentialsProvider.create(
              AwsBasicCredentials.create(config.accessKeyId(), config.secretAccessKey())));
    }
    return builder.build();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RefreshResult refresh(PriceCatalog current) {
    var update =
        new CatalogUpdate(current, SOURCE, LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
    for (var service : Service.values()) {
      rowsByType(current, service).forEach((type, rows) -> reprice(service, type, rows, update));
    }
    return update.result();
  }

  /** The catalog's instance rows of one service, by instance type, in catalog order. */
  private static Map<String, List<PriceRow>> rowsByType(PriceCatalog catalog, Service service) {
    var byType = new LinkedHashMap<String, List<PriceRow>>();
    for (var row : catalog.rows()) {
      if (row.provider().equals("aws")
          && row.service().equals(service.catalogService)
          && row.kind() == PriceRow.Kind.INSTANCE) {
        byType.computeIfAbsent(row.instanceType(), t -> new ArrayList<>()).add(row);
      }
    }
    return byType;
  }

  private void reprice(Service service, String type, List<PriceRow> rows, CatalogUpdate update) {
    var pricesByRegion = hourlyPrices(service, type, update);
    for (var row : rows) {
      var prices = pricesByRegion.get(row.region());
      if (prices == null) {
        update.warn(CatalogUpdate.label(row) + ": not in the Price List answer; kept");
      } else if (prices.size() > 1) {
        update.warn(CatalogUpdate.label(row) + ": several on-demand prices " + prices + "; kept");
      } else {
        update.update(row, prices.first(), null);
      }
    }
  }

  /** Every region's distinct hourly on-demand prices for one instance type. */
  private Map<String, TreeSet<BigDecimal>> hourlyPrices(
      Service service, String type, CatalogUpdate update) {
    var request =
        GetProductsRequest.builder()
            .serviceCode(service.serviceCode)
            .formatVersion("aws_v1")
            .maxResults(100)
            .filters(service.filters(type))
            .build();
    var byRegion = new HashMap<String, TreeSet<BigDecimal>>();
    try {
      for (var entry : client.getProductsPaginator(request).priceList()) {
        try {
          var product = AwsPriceListProduct.parse(entry);
          byRegion
              .computeIfAbsent(product.region(), r -> new TreeSet<>())
              .add(product.onDemandUsdPerHour());
        } catch (IllegalArgumentException e) {
          update.warn(service.serviceCode + " " + type + ": skipped a product: " + e.getMessage());
        }
      }
    } catch (AwsServiceException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.API_REFUSED,
          action(service, type)
              + ": "
              + e.statusCode()
              + " "
              + e.awsErrorDetails().errorCode()
              + ": "
              + e.awsErrorDetails().errorMessage(),
          e);
    } catch (SdkException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.API_UNREACHABLE, action(service, type) + ": " + e.getMessage(), e);
    }
    return byRegion;
  }

  private static String action(Service service, String type) {
    return "GetProducts " + service.serviceCode + " " + type;
  }

  @Override
  public void close() {
    client.close();
  }
}
