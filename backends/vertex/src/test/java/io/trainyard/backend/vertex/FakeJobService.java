package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.CancelCustomJobRequest;
import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.GetCustomJobRequest;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.aiplatform.v1.ListCustomJobsRequest;
import com.google.cloud.aiplatform.v1.ListCustomJobsResponse;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Vertex AI's {@code google.cloud.aiplatform.v1.JobService} on 127.0.0.1 (gRPC over Netty,
 * plaintext), the custom-job methods only: keeps jobs, lets a test move their states, checks what a
 * real server would refuse (pool 0 must hold one replica), honours {@code labels.k="v"} and {@code
 * display_name="x"} list filters, and answers with scripted errors. The service is registered
 * method by method from the request and response messages, since no grpc stub artifact matches this
 * client version.
 */
public final class FakeJobService implements AutoCloseable {
  private static final String SERVICE = "google.cloud.aiplatform.v1.JobService";
  private static final Set<JobState> ENDED =
      Set.of(
          JobState.JOB_STATE_SUCCEEDED,
          JobState.JOB_STATE_FAILED,
          JobState.JOB_STATE_CANCELLED,
          JobState.JOB_STATE_EXPIRED,
          JobState.JOB_STATE_PARTIALLY_SUCCEEDED);
  private static final Pattern TERM =
      Pattern.compile("(labels\\.[a-z0-9_-]+|display_name)=\"([^\"]*)\"");

  private final Server server;
  private final Map<String, CustomJob> jobs = new LinkedHashMap<>();
  private final AtomicLong ids = new AtomicLong(1000);
  private final Set<String> seenCancelling = new java.util.HashSet<>();
  private volatile boolean cancelsOnItsOwn;
  private final Map<String, Deque<Status>> faults = new ConcurrentHashMap<>();
  private final List<Message> received = new CopyOnWriteArrayList<>();

  public FakeJobService() throws IOException {
    var service =
        ServerServiceDefinition.builder(SERVICE)
            .addMethod(
                method(
                    "CreateCustomJob",
                    CreateCustomJobRequest.getDefaultInstance(),
                    CustomJob.getDefaultInstance()),
                unary("CreateCustomJob", this::create))
            .addMethod(
                method(
                    "GetCustomJob",
                    GetCustomJobRequest.getDefaultInstance(),
                    CustomJob.getDefaultInstance()),
                unary("GetCustomJob", this::get))
            .addMethod(
                method(
                    "ListCustomJobs",
                    ListCustomJobsRequest.getDefaultInstance(),
                    ListCustomJobsResponse.getDefaultInstance()),
                unary("ListCustomJobs", this::list))
            .addMethod(
                method(
                    "CancelCustomJob",
                    CancelCustomJobRequest.getDefaultInstance(),
                    Empty.getDefaultInstance()),
                unary("CancelCustomJob", this::cancel))
            .build();
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(service)
            .build()
            .start();
  }

  /** {@code 127.0.0.1:<port>}, for {@code endpoint:} of a backend block. */
  public String endpoint() {
    return "127.0.0.1:" + server.getPort();
  }

  /** The next call of {@code method} fails with this status. */
  public void failNext(String method, Status.Code code, String description) {
    faults
        .computeIfAbsent(method, k -> new ArrayDeque<>())
        .add(code.toStatus().withDescription(description));
  }

  /** Moves a job on, as Vertex would, with the times and error that go with the state. */
  public synchronized void move(String name, JobState state, String error) {
    var job = jobs.get(name).toBuilder().setState(state);
    if (state == JobState.JOB_STATE_RUNNING && !job.hasStartTime()) {
      job.setStartTime(now());
    }
    if (ENDED.contains(state)) {
      job.setEndTime(now());
    }
    if (error != null) {
      job.setError(com.google.rpc.Status.newBuilder().setCode(13).setMessage(error));
    }
    jobs.put(name, job.build());
  }

  /** Fails a job as Vertex does when a Spot VM was preempted: UNAVAILABLE, with its words. */
  public synchronized void preempt(String name, String message) {
    move(name, JobState.JOB_STATE_FAILED, null);
    jobs.put(
        name,
        jobs.get(name).toBuilder()
            .setError(com.google.rpc.Status.newBuilder().setCode(14).setMessage(message))
            .build());
  }

  /** Puts a job there as if another gateway had created it. */
  public synchronized String put(String parent, CustomJob job) {
    var name = parent + "/customJobs/" + ids.incrementAndGet();
    jobs.put(
        name,
        job.toBuilder()
            .setName(name)
            .setState(JobState.JOB_STATE_PENDING)
            .setCreateTime(now())
            .build());
    return name;
  }

  public synchronized List<CustomJob> jobs() {
    return new ArrayList<>(jobs.values());
  }

  /** Requests received, of one message type. */
  public <T extends Message> List<T> received(Class<T> type) {
    return received.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private synchronized CustomJob create(CreateCustomJobRequest request) {
    var pools = request.getCustomJob().getJobSpec().getWorkerPoolSpecsList();
    if (pools.isEmpty() || pools.get(0).getReplicaCount() != 1) {
      throw Status.INVALID_ARGUMENT
          .withDescription("The first worker pool must have exactly one replica.")
          .asRuntimeException();
    }
    var name = put(request.getParent(), request.getCustomJob());
    return jobs.get(name);
  }

  private synchronized CustomJob get(GetCustomJobRequest request) {
    var job = jobs.get(request.getName());
    if (job == null) {
      throw Status.NOT_FOUND
          .withDescription("CustomJob " + request.getName() + " not found.")
          .asRuntimeException();
    }
    // Vertex ends a cancelling job a little later: here, once it has been seen cancelling.
    if (cancelsOnItsOwn
        && job.getState() == JobState.JOB_STATE_CANCELLING
        && !seenCancelling.add(job.getName())) {
      move(job.getName(), JobState.JOB_STATE_CANCELLED, null);
      job = jobs.get(request.getName());
    }
    return job;
  }

  /**
   * From now on a cancelling job is {@code CANCELLED} the second time it is read, as Vertex ends
   * one a little after CancelCustomJob. Off by default: tests that watch {@code CANCELLING} move
   * the job themselves.
   */
  public void cancelJobsOnTheirOwn() {
    cancelsOnItsOwn = true;
  }

  /** Removes a job as if it had been deleted behind the backend's back (DeleteCustomJob). */
  public synchronized void delete(String name) {
    jobs.remove(name);
  }

  private synchronized ListCustomJobsResponse list(ListCustomJobsRequest request) {
    var terms = new LinkedHashMap<String, String>();
    var m = TERM.matcher(request.getFilter());
    while (m.find()) {
      terms.put(m.group(1), m.group(2));
    }
    var answer = ListCustomJobsResponse.newBuilder();
    for (var job : jobs.values()) {
      if (!job.getName().startsWith(request.getParent() + "/")) {
        continue;
      }
      var matches =
          terms.entrySet().stream()
              .allMatch(
                  t ->
                      t.getKey().equals("display_name")
                          ? job.getDisplayName().equals(t.getValue())
                          : t.getValue().equals(job.getLabelsMap().get(t.getKey().substring(7))));
      if (matches
          && (request.getPageSize() == 0 || answer.getCustomJobsCount() < request.getPageSize())) {
        answer.addCustomJobs(job);
      }
    }
    return answer.build();
  }

  private synchronized Empty cancel(CancelCustomJobRequest request) {
    var job = get(GetCustomJobRequest.newBuilder().setName(request.getName()).build());
    if (ENDED.contains(job.getState())) {
      throw Status.FAILED_PRECONDITION
          .withDescription("Cannot cancel the CustomJob as it is in state " + job.getState() + ".")
          .asRuntimeException();
    }
    move(request.getName(), JobState.JOB_STATE_CANCELLING, null);
    return Empty.getDefaultInstance();
  }

  private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(
      String name, Q request, R response) {
    return MethodDescriptor.<Q, R>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
        .setRequestMarshaller(ProtoUtils.marshaller(request))
        .setResponseMarshaller(ProtoUtils.marshaller(response))
        .build();
  }

  private <Q extends Message, R> io.grpc.ServerCallHandler<Q, R> unary(
      String name, Function<Q, R> body) {
    return ServerCalls.asyncUnaryCall(
        (request, observer) -> {
          received.add(request);
          var fault = faults.getOrDefault(name, new ArrayDeque<>()).poll();
          try {
            if (fault != null) {
              throw fault.asRuntimeException();
            }
            observer.onNext(body.apply(request));
            observer.onCompleted();
          } catch (StatusRuntimeException e) {
            observer.onError(e);
          }
        });
  }

  private static Timestamp now() {
    var millis = System.currentTimeMillis();
    return Timestamp.newBuilder()
        .setSeconds(millis / 1000)
        .setNanos((int) (millis % 1000) * 1_000_000)
        .build();
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
