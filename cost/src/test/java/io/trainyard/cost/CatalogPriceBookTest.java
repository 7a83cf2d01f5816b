package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.pricing.ManagedService;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pricing placements from the embedded catalog of real public prices. */
class CatalogPriceBookTest {
  private static final PriceCatalog CATALOG = PriceCatalog.embedded();

  /** As the SageMaker and Vertex modules declare them: no published surcharge. */
  static final List<ManagedService> MANAGED =
      List.of(
          ManagedService.unpublished("aws", "sagemaker", "ec2", "ml."),
          ManagedService.unpublished("gcp", "vertex", "gce", ""));

  private final CatalogPriceBook book =
      new CatalogPriceBook(CATALOG, MANAGED, new BigDecimal("20"));

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # what                                  | provider | service   | region      | spot  | lines                                    | fee  | usd       | estimated
          EC2 m5.2xlarge (seed 002)             | aws      | ec2       | us-east-1   | false | 1 m5.2xlarge                             |      | 0.384     | false
          SageMaker ml.m5.2xlarge (seed 002)    | aws      | sagemaker | us-east-1   | false | 1 ml.m5.2xlarge                          |      | 0.461     | false
          EC2 spot                              | aws      | ec2       | us-east-1   | true  | 1 m5.2xlarge                             |      | 0.1546    | false
          mixed lines: CPU launcher + GPU pool  | aws      | ec2       | us-east-1   | false | 1 m5.2xlarge, 2 g5.12xlarge:nvidia-a10g:4 |      | 11.728    | false
          fee share added                       | aws      | ec2       | us-east-1   | false | 2 m5.2xlarge                             | 0.05 | 0.818     | false
          GCE host + attached T4 ×1             | gcp      | gce       | us-central1 | false | 1 n1-standard-8:nvidia-t4:1              |      | 0.73      | false
          GCE host + attached T4 ×2, spot       | gcp      | gce       | us-central1 | true  | 2 n1-standard-8:nvidia-t4:2              |      | 0.7526    | false
          GCE fixed-GPU machine                 | gcp      | gce       | us-central1 | false | 1 a2-highgpu-1g:nvidia-a100-40gb:1       |      | 3.67339   | false
          Vertex machine + H100 accelerators    | gcp      | vertex    | us-central1 | false | 1 n1-standard-4:nvidia-h100-80gb:2       |      | 19.81159999 | false
          Vertex all-in row                     | gcp      | vertex    | us-central1 | false | 1 a2-highgpu-8g:nvidia-a100-40gb:8       |      | 35.26     | false
          SageMaker type without a row, premium | aws      | sagemaker | us-east-1   | false | 1 ml.m5.4xlarge                          |      | 0.9216    | true
          SageMaker managed spot: EC2 spot × ml/EC2 ratio 0.461/0.384 | aws | sagemaker | us-east-1 | true | 1 ml.m5.2xlarge          |      | 0.1856005466 | true
          SageMaker managed spot, GPU: 0.397 × 1.4084/1.006 | aws | sagemaker | us-east-1 | true | 2 ml.g5.xlarge:nvidia-a10g:1       |      | 1.1116    | true
          SageMaker spot without a row: EC2 spot + premium | aws | sagemaker | us-east-1 | true | 1 ml.m5.4xlarge                    |      | 0.33336   | true
          Vertex Spot VM: GCE spot × 35.26/29.38708 | gcp   | vertex    | us-central1 | true  | 1 a2-highgpu-8g:nvidia-a100-40gb:8       |      | 13.85060182308 | true
          """)
  void pricesLineByLine(
      String what,
      String provider,
      String service,
      String region,
      boolean spot,
      String lines,
      String fee,
      String usd,
      boolean estimated) {
    var priced = book.price(placement(provider, service, region, spot, lines, fee));
    assertThat(priced.missing()).isNull();
    assertThat(priced.price().usdPerHour()).isEqualByComparingTo(usd);
    assertThat(priced.price().estimated()).isEqualTo(estimated);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          unknown type            | aws | ec2       | us-east-1 | false | 1 x9.huge               | no price known for x9.huge on ec2 in us-east-1
          managed spot, VM has no row | gcp | vertex | us-central1 | true | 1 n1-standard-4         | no spot price known for n1-standard-4 in us-central1
          unknown accelerator     | gcp | gce       | us-east4  | false | 1 n1-standard-8:nvidia-v100-16gb:1 | no price known for nvidia-v100-16gb on gce in us-east4
          """)
  void saysWhyThereIsNoPrice(
      String what,
      String provider,
      String service,
      String region,
      boolean spot,
      String lines,
      String reason) {
    var priced = book.price(placement(provider, service, region, spot, lines, null));
    assertThat(priced.price()).isNull();
    assertThat(priced.missing()).isEqualTo(reason);
  }

  @org.junit.jupiter.api.Test
  void aManagedSpotPriceNamesBothSourcesAndTheRatio() {
    var priced =
        book.price(placement("aws", "sagemaker", "us-east-1", true, "1 ml.p3.2xlarge", null));
    // 0.5197 EC2 spot × 3.825 / 3.06 SageMaker/EC2 on-demand
    assertThat(priced.price().usdPerHour()).isEqualByComparingTo("0.649625");
    assertThat(priced.price().estimated()).isTrue();
    assertThat(priced.price().source())
        .contains("ec2 spot price of p3.2xlarge $0.5197/h (skypilot-catalog")
        .contains("sagemaker/ec2 on-demand ratio 3.825/3.06 (aws-samples/foundation-model")
        .contains("estimated: sagemaker publishes no per-instance spot price");
  }

  @org.junit.jupiter.api.Test
  void withoutAPremiumAMissingManagedRowIsNotEstimated() {
    var strict = new CatalogPriceBook(CATALOG, MANAGED, null);
    var priced =
        strict.price(placement("aws", "sagemaker", "us-east-1", false, "1 ml.m5.4xlarge", null));
    assertThat(priced.missing()).contains("no price known for ml.m5.4xlarge");
  }

  @org.junit.jupiter.api.Test
  void withoutItsModuleAManagedServiceIsNotPricedFromVms() {
    var bare = new CatalogPriceBook(CATALOG, List.of(), new BigDecimal("20"));
    var priced =
        bare.price(placement("aws", "sagemaker", "us-east-1", false, "1 ml.m5.4xlarge", null));
    assertThat(priced.missing())
        .isEqualTo("no price known for ml.m5.4xlarge on sagemaker in us-east-1");
  }

  @org.junit.jupiter.api.Test
  void aPublishedSurchargeIsExactOnDemandAndSaysSo() {
    var noSurcharge =
        new ManagedService("aws", "trainer", "ec2", "", BigDecimal.ZERO, "https://example.com/p");
    var plus10 =
        new ManagedService("gcp", "tuner", "gce", "", BigDecimal.TEN, "https://example.com/q");
    var withThem = new CatalogPriceBook(CATALOG, List.of(noSurcharge, plus10), null);

    var exact =
        withThem.price(placement("aws", "trainer", "us-east-1", false, "2 m5.2xlarge", null));
    assertThat(exact.price().usdPerHour()).isEqualByComparingTo("0.768");
    assertThat(exact.price().estimated()).isFalse();
    assertThat(exact.price().source())
        .contains("trainer adds no surcharge to compute (https://example.com/p)");

    var tenPct =
        withThem.price(placement("gcp", "tuner", "us-central1", false, "1 n1-standard-8", null));
    assertThat(tenPct.price().usdPerHour()).isEqualByComparingTo("0.418"); // 0.38 × 1.1
    assertThat(tenPct.price().estimated()).isFalse();
    assertThat(tenPct.price().source()).contains("tuner adds 10% to compute");

    // The service's own spot price is not published: the VM's spot price stands in, estimated.
    var spot = withThem.price(placement("aws", "trainer", "us-east-1", true, "1 m5.2xlarge", null));
    assertThat(spot.price().usdPerHour()).isEqualByComparingTo("0.1546");
    assertThat(spot.price().estimated()).isTrue();
    assertThat(spot.price().source()).contains("the VM's spot price");
  }

  @org.junit.jupiter.api.Test
  void anOperatorPriceWinsAndTheCatalogIsDated() {
    var onprem =
        new Placement(
            "onprem-a",
            "onprem",
            "kubernetes",
            "dc-frankfurt",
            false,
            List.of(new PlacementLine(List.of("worker"), "dgx-a100", 2, "nvidia-a100-40gb", 8)),
            new BigDecimal("24.0"),
            null,
            null,
            null);
    assertThat(book.price(onprem).price().usdPerHour()).isEqualByComparingTo("24");
    var withFee =
        new Placement(
            onprem.backendId(),
            onprem.provider(),
            onprem.service(),
            onprem.region(),
            false,
            onprem.lines(),
            new BigDecimal("24.0"),
            new BigDecimal("0.05"),
            null,
            null);
    assertThat(book.price(withFee).price().usdPerHour()).isEqualByComparingTo("24.05");
    assertThat(book.asOf()).isEqualTo("2026-11-30");
  }

  @org.junit.jupiter.api.Test
  void theCatalogBacksInstanceShapes() {
    var g5 = CATALOG.find("aws", "ec2", "us-east-1", "g5.12xlarge").orElseThrow();
    assertThat(g5.vcpus()).isEqualTo(48);
    assertThat(g5.memoryGiB()).isEqualTo(192);
    assertThat(g5.gpus()).isEqualTo(4);
    assertThat(g5.gpuType()).isEqualTo("nvidia-a10g");
    assertThat(CATALOG.find("aws", "ec2", "us-east-1", "nope")).isEmpty();
    assertThat(CATALOG.rows()).hasSize(87);
  }

  /** Lines as {@code COUNT TYPE[:GPU:GPUS], ...}. */
  private static Placement placement(
      String provider, String service, String region, boolean spot, String lines, String fee) {
    var parsed =
        java.util.Arrays.stream(lines.split(","))
            .map(String::trim)
            .map(
                l -> {
                  var countAndType = l.split(" ");
                  var parts = countAndType[1].split(":");
                  return new PlacementLine(
                      List.of("worker"),
                      parts[0],
                      Integer.parseInt(countAndType[0]),
                      parts.length > 1 ? parts[1] : null,
                      parts.length > 1 ? Integer.parseInt(parts[2]) : 0);
                })
            .toList();
    return new Placement(
        "b",
        provider,
        service,
        region,
        spot,
        parsed,
        null,
        fee == null ? null : new BigDecimal(fee),
        null,
        null);
  }
}
