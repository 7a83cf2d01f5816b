package io.trainyard.backend.sagemaker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small SageMaker on 127.0.0.1 speaking its JSON 1.1 protocol ({@code X-Amz-Target:
 * SageMaker.DescribeTrainingJob}), for what moto lacks: jobs that stay {@code InProgress} until the
 * test moves them, {@code StopTrainingJob}, duplicate names ({@code ResourceInUse}), and scripted
 * errors (throttling, {@code ResourceLimitExceeded}, {@code ValidationException}, expired
 * credentials). Keeps what each call received so tests can assert on the request the SDK sent.
 */
public final class SageMakerStub implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> ENDED = Set.of("Completed", "Failed", "Stopped");

  private final HttpServer server;
  private final Map<String, ObjectNode> jobs = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> tags = new ConcurrentHashMap<>();
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Set<String> seenStopping = ConcurrentHashMap.newKeySet();
  private volatile boolean stopsOnItsOwn;

  /** What one call received: the operation ({@code CreateTrainingJob}) and its JSON body. */
  public record Call(String operation, JsonNode body) {}

  private record Fault(int status, String type, String message) {}

  public SageMakerStub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The next call of {@code operation} fails with this AWS error. */
  public void failNext(String operation, int status, String type, String message) {
    faults
        .computeIfAbsent(operation, k -> new ArrayDeque<>())
        .add(new Fault(status, type, message));
  }

  /** Moves a job on, as SageMaker would; sets the start and end times that go with it. */
  public void move(String name, String status, String secondary, String failureReason) {
    var job = jobs.get(name);
    var now = System.currentTimeMillis() / 1000.0;
    job.put("TrainingJobStatus", status);
    job.put("SecondaryStatus", secondary);
    var transition = JSON.createObjectNode().put("Status", secondary).put("StartTime", now);
    transition.put("StatusMessage", secondary + " (stub)");
    job.withArray("SecondaryStatusTransitions").add(transition);
    if (!job.has("TrainingStartTime") && !secondary.startsWith("Launching")) {
      job.put("TrainingStartTime", now);
    }
    if (ENDED.contains(status)) {
      job.put("TrainingEndTime", now);
    }
    if (failureReason != null) {
      job.put("FailureReason", failureReason);
    }
  }

  /** Puts a job there as if another gateway had created it. */
  public void putJob(String name, Map<String, String> jobTags) {
    var body = JSON.createObjectNode().put("TrainingJobName", name);
    var list = body.putArray("Tags");
    jobTags.forEach((k, v) -> list.addObject().put("Key", k).put("Value", v));
    create(body);
  }

  /**
   * From now on a stopping job is {@code Stopped} the second time it is described, as SageMaker
   * ends one a little after StopTrainingJob. Off by default: tests that watch {@code Stopping} move
   * the job themselves.
   */
  public void stopJobsOnTheirOwn() {
    stopsOnItsOwn = true;
  }

  /** Removes a job as if it had been deleted behind the backend's back (DeleteTrainingJob). */
  public void delete(String name) {
    jobs.remove(name);
    tags.remove(name);
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  public List<Call> calls(String operation) {
    return calls.stream().filter(c -> c.operation().equals(operation)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      var operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
      var body = JSON.readTree(exchange.getRequestBody().readAllBytes());
      calls.add(new Call(operation, body));
      var queued = faults.getOrDefault(operation, new ArrayDeque<>()).poll();
      if (queued != null) {
        error(exchange, queued.status(), queued.type(), queued.message());
        return;
      }
      answer(exchange, operation, body);
    }
  }

  private void answer(HttpExchange exchange, String operation, JsonNode body) throws IOException {
    var name = body.path("TrainingJobName").asText(null);
    switch (operation) {
      case "CreateTrainingJob" -> {
        if (jobs.containsKey(name)) {
          error(
              exchange,
              400,
              "ResourceInUse",
              "Training job names must be unique within an"
                  + " AWS account and region, and a training job with this name already exists ("
                  + arn(name)
                  + ")");
          return;
        }
        ok(exchange, JSON.createObjectNode().put("TrainingJobArn", create(body)));
      }
      case "DescribeTrainingJob" -> {
        if (!jobs.containsKey(name)) {
          error(exchange, 400, "ValidationException", "Requested resource not found.");
          return;
        }
        var job = jobs.get(name);
        // SageMaker ends a stopping job a little later: here, once it has been seen stopping.
        if (stopsOnItsOwn
            && "Stopping".equals(job.path("TrainingJobStatus").asText())
            && !seenStopping.add(name)) {
          move(name, "Stopped", "Stopped", null);
        }
        ok(exchange, job);
      }
      case "StopTrainingJob" -> stop(exchange, name);
      case "ListTags" -> {
        var jobName = body.path("ResourceArn").asText().replaceFirst(".*training-job/", "");
        ok(exchange, JSON.createObjectNode().set("Tags", tags.get(jobName)));
      }
      case "ListTrainingJobs" -> {
        var answer = JSON.createObjectNode();
        answer.putArray("TrainingJobSummaries");
        ok(exchange, answer);
      }
      default -> error(exchange, 400, "UnknownOperationException", operation);
    }
  }

  private void stop(HttpExchange exchange, String name) throws IOException {
    var job = jobs.get(name);
    if (job == null) {
      error(exchange, 400, "ValidationException", "Requested resource not found.");
    } else if (ENDED.contains(job.path("TrainingJobStatus").asText())) {
      error(
          exchange,
          400,
          "ValidationException",
          "The request was rejected because the"
              + " training job is in status "
              + job.path("TrainingJobStatus").asText()
              + ".");
    } else {
      move(name, "Stopping", "Stopping", null);
      ok(exchange, JSON.createObjectNode());
    }
  }

  private String create(JsonNode request) {
    var name = request.path("TrainingJobName").asText();
    var job = ((ObjectNode) request.deepCopy());
    job.remove("Tags");
    job.put("TrainingJobArn", arn(name));
    job.put("TrainingJobStatus", "InProgress");
    job.put("SecondaryStatus", "Starting");
    job.put("CreationTime", System.currentTimeMillis() / 1000.0);
    job.putArray("SecondaryStatusTransitions");
    jobs.put(name, job);
    tags.put(
        name, request.path("Tags").isMissingNode() ? JSON.createArrayNode() : request.get("Tags"));
    return arn(name);
  }

  private static String arn(String name) {
    return "arn:aws:sagemaker:us-east-1:123456789012:training-job/" + name;
  }

  private static void ok(HttpExchange exchange, JsonNode body) throws IOException {
    send(exchange, 200, body, null);
  }

  private static void error(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    var body = JSON.createObjectNode().put("__type", type).put("message", message);
    send(exchange, status, body, type);
  }

  private static void send(HttpExchange exchange, int status, JsonNode body, String errorType)
      throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    exchange.getResponseHeaders().set("x-amzn-RequestId", "stub-" + System.nanoTime());
    if (errorType != null) {
      exchange.getResponseHeaders().set("x-amzn-ErrorType", errorType);
    }
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  public List<String> names() {
    return new ArrayList<>(jobs.keySet());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
