package io.trainyard.backend.vertex;

import com.google.api.MonitoredResource;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.ListLogEntriesResponse;
import com.google.logging.v2.LogEntry;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Cloud Logging's {@code google.logging.v2.LoggingServiceV2} on 127.0.0.1 (gRPC over Netty,
 * plaintext), {@code ListLogEntries} only, for the real {@code LoggingClient}. It keeps the entries
 * a test writes and answers as the API does: the filter is parsed and applied (the subset of the
 * Logging query language the backend writes — comparisons of {@code resource.type}, {@code
 * resource.labels.*}, {@code labels.*}, {@code timestamp} and {@code insertId} with quoted values,
 * {@code AND}, {@code OR} and parentheses; anything else is {@code INVALID_ARGUMENT}, and so is
 * {@code AND} next to {@code OR} without parentheses), results come by timestamp then insert id,
 * {@code page_size} defaults to 50 and may not exceed 1000, further pages come by {@code
 * page_token}. Calls are counted, requests kept, errors scripted.
 */
public final class FakeLoggingService implements AutoCloseable {
  private static final String SERVICE = "google.logging.v2.LoggingServiceV2";

  private final Server server;
  private final String project;
  private final List<LogEntry> entries = new ArrayList<>();
  private final List<ListLogEntriesRequest> received = new ArrayList<>();
  private final Deque<Status> faults = new ArrayDeque<>();
  private long nextInsertId = 1;

  public FakeLoggingService(String project) throws IOException {
    this.project = project;
    var method =
        MethodDescriptor.<ListLogEntriesRequest, ListLogEntriesResponse>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "ListLogEntries"))
            .setRequestMarshaller(ProtoUtils.marshaller(ListLogEntriesRequest.getDefaultInstance()))
            .setResponseMarshaller(
                ProtoUtils.marshaller(ListLogEntriesResponse.getDefaultInstance()))
            .build();
    var service =
        ServerServiceDefinition.builder(SERVICE)
            .addMethod(
                method,
                ServerCalls.<ListLogEntriesRequest, ListLogEntriesResponse>asyncUnaryCall(
                    (request, observer) -> {
                      try {
                        observer.onNext(list(request));
                        observer.onCompleted();
                      } catch (StatusRuntimeException e) {
                        observer.onError(e);
                      }
                    }))
            .build();
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(service)
            .build()
            .start();
  }

  /** {@code 127.0.0.1:<port>}, for {@code loggingEndpoint:} of a backend block. */
  public String endpoint() {
    return "127.0.0.1:" + server.getPort();
  }

  /** A line a Vertex task printed to stdout: a text payload on the job's {@code ml_job}. */
  public synchronized LogEntry writeText(String jobId, String task, Instant at, String text) {
    return write(jobId, task, at, LogEntry.newBuilder().setTextPayload(text));
  }

  /** A structured line (Python logging through the Cloud Logging agent): jsonPayload.message. */
  public synchronized LogEntry writeJson(String jobId, String task, Instant at, String message) {
    var json =
        Struct.newBuilder()
            .putFields("message", Value.newBuilder().setStringValue(message).build())
            .putFields("levelname", Value.newBuilder().setStringValue("INFO").build());
    return write(jobId, task, at, LogEntry.newBuilder().setJsonPayload(json));
  }

  private LogEntry write(String jobId, String task, Instant at, LogEntry.Builder entry) {
    var resource = MonitoredResource.newBuilder().setType("ml_job").putLabels("job_id", jobId);
    if (task != null) {
      resource.putLabels("task_name", task);
    }
    var written =
        entry
            .setLogName("projects/" + project + "/logs/workerpool0-0")
            .setResource(resource.putLabels("project_id", project))
            .setTimestamp(
                Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()))
            .setInsertId(String.format("%012d", nextInsertId++))
            .build();
    entries.add(written);
    notifyAll();
    return written;
  }

  /** The next call fails with this status. */
  public synchronized void failNext(Status.Code code, String description) {
    faults.add(code.toStatus().withDescription(description));
  }

  /** Every list call so far, in order. */
  public synchronized List<ListLogEntriesRequest> received() {
    return List.copyOf(received);
  }

  public synchronized int calls() {
    return received.size();
  }

  /** Waits until the fake has had {@code calls} calls in all (guarding against a hang only). */
  public synchronized void awaitCalls(int calls) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (received.size() < calls) {
      var left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("only " + received.size() + " of " + calls + " list calls");
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  private synchronized ListLogEntriesResponse list(ListLogEntriesRequest request) {
    received.add(request);
    notifyAll();
    var fault = faults.poll();
    if (fault != null) {
      throw fault.asRuntimeException();
    }
    if (!request.getResourceNamesList().equals(List.of("projects/" + project))) {
      throw Status.PERMISSION_DENIED
          .withDescription(
              "The caller does not have permission on " + request.getResourceNamesList())
          .asRuntimeException();
    }
    int size = request.getPageSize() == 0 ? 50 : request.getPageSize();
    if (size < 0 || size > 1000) {
      throw invalid("page_size must be between 0 and 1000");
    }
    var order = request.getOrderBy();
    if (!order.isEmpty() && !order.equals("timestamp asc") && !order.equals("timestamp desc")) {
      throw invalid("order_by must be \"timestamp asc\" or \"timestamp desc\"");
    }
    if (request.getFilter().length() > 20_000) {
      throw invalid("filter is longer than 20000 characters");
    }
    var matches = new FilterParser(request.getFilter()).parse();
    Comparator<LogEntry> byTime =
        Comparator.comparing((LogEntry e) -> instant(e.getTimestamp()))
            .thenComparing(LogEntry::getInsertId);
    var found =
        entries.stream()
            .filter(matches)
            .sorted(order.equals("timestamp desc") ? byTime.reversed() : byTime)
            .toList();
    int from = request.getPageToken().isEmpty() ? 0 : offset(request.getPageToken());
    int to = Math.min(found.size(), from + size);
    var page = ListLogEntriesResponse.newBuilder().addAllEntries(found.subList(from, to));
    if (to < found.size()) {
      page.setNextPageToken("offset:" + to);
    }
    return page.build();
  }

  private static int offset(String token) {
    if (!token.startsWith("offset:")) {
      throw invalid("page_token is not one this server gave");
    }
    return Integer.parseInt(token.substring(7));
  }

  private static StatusRuntimeException invalid(String why) {
    return Status.INVALID_ARGUMENT.withDescription(why).asRuntimeException();
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  /** The subset of the Logging query language the backend writes; refuses anything else. */
  private static final class FilterParser {
    private final String text;
    private int pos;

    FilterParser(String text) {
      this.text = text;
    }

    Predicate<LogEntry> parse() {
      if (text.isBlank()) {
        return e -> true;
      }
      var expression = expression();
      skipSpace();
      if (pos != text.length()) {
        throw invalid("unexpected text at " + pos + " of filter: " + text);
      }
      return expression;
    }

    // A run of terms joined by one operator; mixing AND and OR needs parentheses.
    private Predicate<LogEntry> expression() {
      var result = term();
      String joiner = null;
      while (true) {
        skipSpace();
        String op =
            text.startsWith("AND ", pos) ? "AND" : text.startsWith("OR ", pos) ? "OR" : null;
        if (op == null) {
          return result;
        }
        if (joiner != null && !joiner.equals(op)) {
          throw invalid("AND and OR mixed without parentheses in filter: " + text);
        }
        joiner = op;
        pos += op.length();
        var next = term();
        result = op.equals("AND") ? result.and(next) : result.or(next);
      }
    }

    private Predicate<LogEntry> term() {
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == '(') {
        pos++;
        var inner = expression();
        skipSpace();
        if (pos >= text.length() || text.charAt(pos) != ')') {
          throw invalid("missing ) in filter: " + text);
        }
        pos++;
        return inner;
      }
      var field = field();
      var op = operator();
      var value = string();
      return entry -> compare(field, entry, op, value);
    }

    private String field() {
      int start = pos;
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c == '"') {
          int end = text.indexOf('"', pos + 1);
          if (end < 0) {
            throw invalid("unterminated field name in filter: " + text);
          }
          pos = end + 1;
        } else if (Character.isLetterOrDigit(c) || c == '.' || c == '_') {
          pos++;
        } else {
          break;
        }
      }
      if (pos == start) {
        throw invalid("expected a field at " + start + " of filter: " + text);
      }
      return text.substring(start, pos);
    }

    private String operator() {
      for (var op : List.of(">=", "<=", "=", ">", "<")) {
        if (text.startsWith(op, pos)) {
          pos += op.length();
          return op;
        }
      }
      throw invalid("expected a comparison at " + pos + " of filter: " + text);
    }

    private String string() {
      if (pos >= text.length() || text.charAt(pos) != '"') {
        throw invalid("expected a quoted value at " + pos + " of filter: " + text);
      }
      var value = new StringBuilder();
      pos++;
      while (pos < text.length()) {
        char c = text.charAt(pos++);
        if (c == '"') {
          return value.toString();
        }
        if (c == '\\') {
          char e = text.charAt(pos++);
          switch (e) {
            case 'n' -> value.append('\n');
            case 't' -> value.append('\t');
            case 'r' -> value.append('\r');
            case 'u' -> {
              value.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
              pos += 4;
            }
            default -> value.append(e);
          }
        } else {
          value.append(c);
        }
      }
      throw invalid("unterminated value in filter: " + text);
    }

    private void skipSpace() {
      while (pos < text.length() && text.charAt(pos) == ' ') {
        pos++;
      }
    }

    private static boolean compare(String field, LogEntry entry, String op, String value) {
      if (field.equals("timestamp")) {
        return holds(instant(entry.getTimestamp()).compareTo(Instant.parse(value)), op);
      }
      String actual;
      if (field.equals("resource.type")) {
        actual = entry.getResource().getType();
      } else if (field.startsWith("resource.labels.")) {
        actual = entry.getResource().getLabelsOrDefault(unquote(field.substring(16)), null);
      } else if (field.startsWith("labels.")) {
        actual = entry.getLabelsOrDefault(unquote(field.substring(7)), null);
      } else if (field.equals("insertId")) {
        actual = entry.getInsertId();
      } else {
        throw invalid("field " + field + " is not one this fake knows");
      }
      return actual != null && holds(actual.compareTo(value), op);
    }

    private static String unquote(String name) {
      return name.startsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }

    private static boolean holds(int order, String op) {
      return switch (op) {
        case "=" -> order == 0;
        case ">" -> order > 0;
        case ">=" -> order >= 0;
        case "<" -> order < 0;
        default -> order <= 0;
      };
    }
  }

  @Override
  public void close() {
    try {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
