package io.trainyard.gateway.logging;

import ch.qos.logback.access.common.spi.IAccessEvent;
import ch.qos.logback.classic.Logger;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.logging.common.filter.NullLevelFilterFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLog;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import io.dropwizard.request.logging.layout.LogbackAccessRequestLayoutFactory;
import org.eclipse.jetty.server.RequestLog;
import org.slf4j.LoggerFactory;

/**
 * Dropwizard's access log ({@code server.requestLog}: the same appenders, layouts and settings)
 * with each appender behind a {@link BatchingAppender} instead of logback's per-event hand-off.
 * Dropwizard's factory builds its asynchronous wrapper itself, so this one builds the same log with
 * another.
 */
public final class BatchingRequestLogFactory extends LogbackAccessRequestLogFactory {
  /**
   * Puts this factory in place of Dropwizard's default one on {@code server}, keeping its
   * configured appenders; any other request-log type a configuration names is left as it is.
   */
  public static void install(AbstractServerFactory server) {
    if (server.getRequestLogFactory().getClass() == LogbackAccessRequestLogFactory.class) {
      var configured = (LogbackAccessRequestLogFactory) server.getRequestLogFactory();
      var batching = new BatchingRequestLogFactory();
      batching.setAppenders(configured.getAppenders());
      server.setRequestLogFactory(batching);
    }
  }

  @Override
  public RequestLog build(String name) {
    var logger = (Logger) LoggerFactory.getLogger("http.request");
    logger.setAdditive(false);
    var context = logger.getLoggerContext();
    var requestLog = new LogbackAccessRequestLog();
    var levels = new NullLevelFilterFactory<IAccessEvent>();
    var layouts = new LogbackAccessRequestLayoutFactory();
    for (var appender : getAppenders()) {
      requestLog.addAppender(
          appender.build(context, name, layouts, levels, BatchingAppender<IAccessEvent>::new));
    }
    return requestLog;
  }
}
