package io.trainyard.backend.sagemaker;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilterLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilteredLogEvent;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResourceNotFoundException;

/**
 * A training job's lines from CloudWatch Logs: group {@code /aws/sagemaker/TrainingJobs}, one
 * stream per host named {@code <job>/algo-<n>-<epoch>}, each host's lines labelled with our replica
 * name (see {@link SageMakerHosts}). The streams are listed again on every read, since hosts start
 * writing at different times; a followed stream asks again every poll interval until the job has
 * ended, then reads once more so nothing written at the end is lost. One reader; {@link #close()}
 * may come from another thread and wakes a waiting {@link #next()}.
 */
final class SageMakerLogStream implements LogStream {
  static final String GROUP = "/aws/sagemaker/TrainingJobs";
  // FilterLogEvents takes at most 100 stream names per call.
  private static final int STREAMS_PER_CALL = 100;

  private final CloudWatchLogsClient logs;
  private final String jobName;
  private final String streamPrefix;
  private final SageMakerHosts hosts;
  private final boolean follow;
  private final BooleanSupplier ended;
  private final Duration pollInterval;
  private final ArrayDeque<LogLine> buffer = new ArrayDeque<>();
  private final Set<String> seenAtLatest = new HashSet<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private long latestMillis;
  private boolean exhausted;

  /**
   * @param host {@code algo-2} to read one host, null for all
   * @param since only lines at or after this; null for all
   * @param ended whether the job has ended, asked before each read while following
   */
  SageMakerLogStream(
      CloudWatchLogsClient logs,
      String jobName,
      String host,
      SageMakerHosts hosts,
      Instant since,
      boolean follow,
      BooleanSupplier ended,
      Duration pollInterval) {
    this.logs = logs;
    this.jobName = jobName;
    this.streamPrefix = jobName + "/" + (host == null ? "" : host + "-");
    this.hosts = hosts;
    this.follow = follow;
    this.ended = ended;
    this.pollInterval = pollInterval;
    this.latestMillis = since == null ? 0 : since.toEpochMilli();
  }

  @Override
  public Optional<LogLine> next() throws InterruptedException {
    while (closed.getCount() > 0) {
      if (!buffer.isEmpty()) {
        return Optional.of(buffer.poll());
      }
      if (exhausted) {
        return Optional.empty();
      }
      // Asked before reading, so lines written just before the end are still read once.
      var last = !follow || ended.getAsBoolean();
      read();
      if (buffer.isEmpty() && last) {
        exhausted = true;
      } else if (buffer.isEmpty() && closed.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS)) {
        break;
      }
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    closed.countDown();
  }

  private void read() {
    try {
      var streams = streams();
      var events = new ArrayList<FilteredLogEvent>();
      for (int i = 0; i < streams.size(); i += STREAMS_PER_CALL) {
        events.addAll(events(streams.subList(i, Math.min(streams.size(), i + STREAMS_PER_CALL))));
      }
      events.sort(
          Comparator.comparing(FilteredLogEvent::timestamp)
              .thenComparing(FilteredLogEvent::logStreamName));
      events.forEach(this::take);
    } catch (ResourceNotFoundException e) {
      // No group yet: SageMaker creates it when the first host writes.
    } catch (SdkException e) {
      throw SageMakerErrorTranslator.translate(e, "read logs of " + jobName);
    }
  }

  private List<String> streams() {
    var request =
        DescribeLogStreamsRequest.builder().logGroupName(GROUP).logStreamNamePrefix(streamPrefix);
    return logs.describeLogStreamsPaginator(request.build()).logStreams().stream()
        .map(s -> s.logStreamName())
        .toList();
  }

  private List<FilteredLogEvent> events(List<String> streams) {
    var request =
        FilterLogEventsRequest.builder()
            .logGroupName(GROUP)
            .logStreamNames(streams)
            .startTime(latestMillis);
    return logs.filterLogEventsPaginator(request.build()).events().stream().toList();
  }

  // Reads overlap at the latest millisecond (startTime is inclusive): skip what was taken there.
  private void take(FilteredLogEvent event) {
    long at = event.timestamp();
    if (at < latestMillis || (at == latestMillis && !seenAtLatest.add(event.eventId()))) {
      return;
    }
    if (at > latestMillis) {
      latestMillis = at;
      seenAtLatest.clear();
      seenAtLatest.add(event.eventId());
    }
    var text = event.message();
    if (text != null && text.endsWith("\n")) {
      text = text.substring(0, text.length() - 1);
    }
    buffer.add(
        new LogLine(hosts.replicaOfStream(event.logStreamName()), Instant.ofEpochMilli(at), text));
  }
}
