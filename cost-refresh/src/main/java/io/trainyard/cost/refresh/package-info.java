/**
 * Refreshes the price catalog from the providers' price APIs: the AWS Price List Query API ({@link
 * io.trainyard.cost.refresh.AwsPriceListRefresher}) and the Google Cloud Billing Catalog API
 * ({@link io.trainyard.cost.refresh.GcpBillingCatalogRefresher}). A refresher only re-prices rows
 * the catalog already has and keeps every other row; {@link
 * io.trainyard.cost.refresh.CatalogRefresh} swaps the result into a {@link
 * io.trainyard.cost.CatalogPriceBook} only when a refresher succeeded. No framework: the gateway
 * schedules it and shows {@link io.trainyard.cost.refresh.RefreshReport} in health.
 */
package io.trainyard.cost.refresh;
