package io.trainyard.gateway.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.errors.PlainDigits;
import io.trainyard.gateway.tracing.GatewayTracing;
import io.trainyard.kubeflow.DocumentPaths;
import io.trainyard.kubeflow.KubeflowConversionException;
import io.trainyard.kubeflow.KubeflowDocuments;
import io.trainyard.kubeflow.KubeflowReader;
import io.trainyard.kubeflow.TrainJobReader;
import io.trainyard.kubeflow.TrainerRuntimes;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Reads a submitted job document (JSON or YAML) into a valid {@link TrainingJob}, or refuses it
 * with every problem named by field. A hostile document costs little: the body's size is capped
 * before parsing, nesting is bounded by the parsers (50 levels of YAML, 1000 of JSON), and YAML
 * aliases cannot nest (see {@link KubeflowDocuments#parseSingle}). Thread-safe.
 */
public final class SpecReader {
  private final ObjectMapper strict =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .registerModule(PlainDigits.module());
  private final KubeflowReader kubeflow = new KubeflowReader();
  private final TrainJobReader trainJobs;
  private final JobSpecValidator validator = new JobSpecValidator();
  private final int maxBytes;
  private volatile GatewayTracing tracing = GatewayTracing.off();

  /** A reader whose TrainJobs may name Kubeflow Trainer's built-in runtimes only. */
  public SpecReader(int maxBytes) {
    this(maxBytes, TrainerRuntimes.builtIn());
  }

  /** A reader whose TrainJobs may name {@code runtimes} (see {@link #runtimesOf}). */
  public SpecReader(int maxBytes, TrainerRuntimes runtimes) {
    this.maxBytes = maxBytes;
    this.trainJobs = new TrainJobReader(runtimes);
  }

  /**
   * Trainer's built-in runtimes and every runtime a configured backend declares ({@link
   * BackendConfig#trainerRuntimes()}): a submitted TrainJob may name any of them, and each backend
   * then says whether it has the one named.
   *
   * @throws IllegalArgumentException two backends declare one runtime with different frameworks
   */
  public static TrainerRuntimes runtimesOf(List<BackendConfig> backends) {
    var declared = new LinkedHashMap<String, Framework>();
    var by = new LinkedHashMap<String, String>();
    for (var backend : backends) {
      backend
          .trainerRuntimes()
          .forEach(
              (name, framework) -> {
                var earlier = declared.putIfAbsent(name, framework);
                if (earlier != null && earlier != framework) {
                  throw new IllegalArgumentException(
                      "backends: runtime "
                          + name
                          + " runs "
                          + earlier
                          + " on "
                          + by.get(name)
                          + " but "
                          + framework
                          + " on "
                          + backend.id()
                          + "; a TrainJob naming it must mean one framework");
                }
                by.putIfAbsent(name, backend.id());
              });
    }
    return TrainerRuntimes.with(declared);
  }

  /** The body's bytes, refusing it (413) once it passes the limit, without reading the rest. */
  public byte[] readBody(InputStream body) {
    try {
      var bytes = body.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw ApiException.field(
            ErrorCode.PAYLOAD_TOO_LARGE, "body", "is larger than " + maxBytes + " bytes");
      }
      if (bytes.length == 0) {
        throw ApiException.field(ErrorCode.MALFORMED, "body", "is empty: send a job document");
      }
      return bytes;
    } catch (IOException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "could not be read");
    }
  }

  /**
   * A valid job and what was adjusted to make it one (Kubeflow documents, algorithms).
   *
   * @param submitted the job as the caller wrote it, before a registered algorithm was merged in:
   *     what an idempotency key stands for (the algorithm's default version may move between two
   *     sends of the same document)
   */
  public record ParsedJob(TrainingJob job, List<String> warnings, TrainingJob submitted) {
    public ParsedJob {
      warnings = List.copyOf(warnings);
      submitted = submitted == null ? job : submitted;
    }

    public ParsedJob(TrainingJob job, List<String> warnings) {
      this(job, warnings, job);
    }
  }

  /**
   * Expands a job that names a registered algorithm ({@code spec.algorithm}) into the job it stands
   * for, before that is validated; see {@code algorithms.AlgorithmExpander}.
   */
  @FunctionalInterface
  public interface Expansion {
    Expansion NONE = job -> new ParsedJob(job, List.of());

    ParsedJob expand(TrainingJob job);
  }

  /** {@link #read(byte[], Expansion)} without algorithms: a job naming one is invalid. */
  public ParsedJob read(byte[] body) {
    return read(body, Expansion.NONE);
  }

  /**
   * Parses and validates a {@code trainyard.io/v1} TrainingJob, or converts a {@code
   * kubeflow.org/v1} PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob or JAXJob, the MPI Operator
   * v2's {@code kubeflow.org/v2beta1} MPIJob, or a Kubeflow Trainer {@code
   * trainer.kubeflow.org/v1alpha1} TrainJob. JSON or YAML whatever the content type says; one
   * document per body; YAML anchors resolved, aliases to anchors that hold aliases refused (they
   * could expand without bound).
   *
   * @throws ApiException 400 when the body does not parse, 422 when it is not a valid job
   */
  public ParsedJob read(byte[] body, Expansion algorithms) {
    return tracing.inSpan("validate", () -> parse(body, algorithms));
  }

  /** Spans for validation (docs/observability.md "Traces"); set before serving. */
  public SpecReader withTracing(GatewayTracing tracing) {
    this.tracing = tracing;
    return this;
  }

  private ParsedJob parse(byte[] body, Expansion algorithms) {
    JsonNode tree;
    try {
      tree = KubeflowDocuments.parseSingle(body);
    } catch (KubeflowConversionException e) {
      throw malformed(e.errors());
    }
    if (tree == null || !tree.isObject()) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "must be an object (a job document)");
    }
    if (KubeflowReader.isKubeflowDocument(tree) || TrainJobReader.isTrainJobDocument(tree)) {
      try {
        var conversion =
            TrainJobReader.isTrainJobDocument(tree) ? trainJobs.read(tree) : kubeflow.read(tree);
        return new ParsedJob(validated(conversion.job(), tree), conversion.warnings());
      } catch (KubeflowConversionException e) {
        throw invalid(e.errors());
      }
    }
    TrainingJob job;
    try {
      job = strict.treeToValue(tree, TrainingJob.class);
    } catch (JsonMappingException e) {
      throw invalid(List.of(fieldError(e)));
    } catch (StreamReadException e) {
      // A whole number too large for its field (an int given 40 digits) fails as a read error.
      var field =
          e.getProcessor() != null ? path(e.getProcessor().getParsingContext()) : "(document)";
      throw invalid(List.of(new FieldError(field, "is out of range for this field")));
    } catch (JsonProcessingException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "could not be read as a job document");
    }
    if (job.spec() != null && job.spec().algorithm() != null) {
      // Kubeflow documents have no such field: only Trainyard specs name algorithms.
      var expanded = algorithms.expand(job);
      return new ParsedJob(validated(expanded.job()), expanded.warnings(), job);
    }
    return new ParsedJob(validated(job), List.of());
  }

  private TrainingJob validated(TrainingJob job) {
    return validated(job, null);
  }

  /**
   * @param kubeflowDocument the Kubeflow document {@code job} was converted from, whose own paths
   *     the errors then name; null for a Trainyard spec
   */
  private TrainingJob validated(TrainingJob job, JsonNode kubeflowDocument) {
    var errors = validator.validate(job);
    if (!errors.isEmpty()) {
      throw invalid(kubeflowDocument == null ? errors : DocumentPaths.of(kubeflowDocument, errors));
    }
    return job;
  }

  private static ApiException invalid(List<FieldError> errors) {
    var listed = Math.min(errors.size(), ApiException.MAX_LISTED);
    return new ApiException(
        ErrorCode.INVALID_SPEC,
        "the job document is not valid: "
            + errors.size()
            + " problem(s)"
            + (listed < errors.size()
                ? "; the first " + listed + " are listed, and " + (errors.size() - listed) + " more"
                : ""),
        errors,
        null);
  }

  private static ApiException malformed(List<FieldError> errors) {
    var first = errors.isEmpty() ? null : errors.get(0);
    if (first == null || first.field().isEmpty()) {
      var message =
          first == null ? "could not be read" : first.message().replaceFirst("^the body ", "");
      return ApiException.field(ErrorCode.MALFORMED, "body", message);
    }
    return new ApiException(
        ErrorCode.MALFORMED, first.field() + " " + first.message(), errors, null);
  }

  private static FieldError fieldError(JsonMappingException e) {
    var path = new StringBuilder();
    for (var ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    var field = path.length() == 0 ? "(document)" : path.toString();
    if (e instanceof UnrecognizedPropertyException) {
      return new FieldError(field, "unknown field");
    }
    var cause = rootCause(e);
    if (cause instanceof InputCoercionException coercion) {
      // A whole number past its field's type: thrown by the parser, so Jackson's path stops at the
      // object holding it (a map's key is lost); the parser's own context still names it.
      var at =
          coercion.getProcessor() == null
              ? null
              : path(coercion.getProcessor().getParsingContext());
      return new FieldError(
          at == null || at.length() < field.length() ? field : at,
          "is out of range for this field");
    }
    if (cause instanceof IllegalArgumentException || cause instanceof NullPointerException) {
      return new FieldError(field, cause.getMessage() == null ? "is invalid" : cause.getMessage());
    }
    if (e instanceof InvalidFormatException invalid
        && invalid.getValue() instanceof String text
        && PlainDigits.isPlain(text)) {
      return new FieldError(field, "is out of range for this field"); // e.g. "99999999999"
    }
    if (e instanceof InvalidFormatException invalid) {
      return new FieldError(
          field, "'" + invalid.getValue() + "' is not " + describe(invalid.getTargetType()));
    }
    if (e instanceof MismatchedInputException mismatched) {
      return new FieldError(field, "must be " + describe(mismatched.getTargetType()));
    }
    return new FieldError(field, "is invalid");
  }

  private static String path(JsonStreamContext context) {
    var parts = new ArrayDeque<String>();
    for (var c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.push("[" + Math.max(c.getCurrentIndex(), 0) + "]");
      } else if (c.getCurrentName() != null) {
        parts.push("." + c.getCurrentName());
      }
    }
    var path = String.join("", parts);
    return path.isEmpty() ? "(document)" : path.startsWith(".") ? path.substring(1) : path;
  }

  private static Throwable rootCause(Throwable e) {
    var t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  private static String describe(Class<?> type) {
    if (type == null) {
      return "of the right type";
    }
    if (type == Integer.class || type == int.class || type == Long.class) {
      return "a whole number";
    }
    if (Number.class.isAssignableFrom(type) || type == double.class) {
      return "a number";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (List.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "an object";
  }
}
