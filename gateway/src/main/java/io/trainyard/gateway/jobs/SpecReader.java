package io.trainyard.gateway.jobs;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads a submitted job document (JSON or YAML) into a valid {@link TrainingJob}, or refuses it
 * with every problem named by field. Size, nesting and YAML aliases are bounded before anything is
 * built, so a hostile document costs little. Thread-safe.
 */
public final class SpecReader {
  private static final int MAX_NESTING = 64;
  private static final int MAX_ALIASES = 20;

  private final ObjectMapper json;
  private final ObjectMapper yaml;
  private final int maxBytes;
  private final JobSpecValidator validator = new JobSpecValidator();

  public SpecReader(int maxBytes) {
    this.maxBytes = maxBytes;
    var constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(MAX_NESTING)
            .maxDocumentLength(maxBytes)
            .maxStringLength(maxBytes)
            .build();
    var loader = new LoaderOptions();
    loader.setMaxAliasesForCollections(MAX_ALIASES);
    loader.setNestingDepthLimit(MAX_NESTING);
    loader.setCodePointLimit(maxBytes);
    loader.setAllowDuplicateKeys(false);
    var yamlFactory =
        YAMLFactory.builder().loaderOptions(loader).streamReadConstraints(constraints).build();
    this.yaml = strict(new ObjectMapper(yamlFactory));
    var jsonMapper = new ObjectMapper();
    jsonMapper.getFactory().setStreamReadConstraints(constraints);
    jsonMapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    this.json = strict(jsonMapper);
  }

  private static ObjectMapper strict(ObjectMapper mapper) {
    return mapper
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
  }

  /** The body's bytes, refusing it (413) once it passes the limit, without reading the rest. */
  public byte[] readBody(InputStream body) {
    try {
      var bytes = body.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw new ApiException(
            ErrorCode.PAYLOAD_TOO_LARGE, "the job document is larger than " + maxBytes + " bytes");
      }
      if (bytes.length == 0) {
        throw new ApiException(ErrorCode.MALFORMED, "the request has no body: send a job document");
      }
      return bytes;
    } catch (IOException e) {
      throw new ApiException(ErrorCode.MALFORMED, "the request body could not be read");
    }
  }

  /**
   * Parses and validates.
   *
   * @param contentType the request's media type; YAML types select YAML, anything else JSON
   * @throws ApiException 400 when the document does not parse, 422 when it is not a valid job
   */
  public TrainingJob read(byte[] body, String contentType) {
    var mapper = isYaml(contentType) ? yaml : json;
    JsonNode tree;
    try {
      tree = mapper.readTree(body);
    } catch (JsonProcessingException e) {
      throw new ApiException(
          ErrorCode.MALFORMED,
          (mapper == yaml ? "malformed YAML: " : "malformed JSON: ") + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ApiException(ErrorCode.MALFORMED, "the job document could not be read");
    }
    if (tree == null || !tree.isObject()) {
      throw new ApiException(ErrorCode.MALFORMED, "the job document must be an object");
    }
    var apiVersion = tree.path("apiVersion").asText("");
    if (apiVersion.startsWith("kubeflow.org/")) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC,
          "apiVersion",
          "Kubeflow documents are not accepted yet; send a trainyard.io/v1 TrainingJob");
    }
    TrainingJob job;
    try {
      job = mapper.treeToValue(tree, TrainingJob.class);
    } catch (JsonMappingException e) {
      var error = fieldError(e);
      throw invalid(List.of(error));
    } catch (JsonProcessingException e) {
      throw new ApiException(ErrorCode.MALFORMED, "the job document could not be read");
    }
    var errors = validator.validate(job);
    if (!errors.isEmpty()) {
      throw invalid(errors);
    }
    return job;
  }

  private static ApiException invalid(List<FieldError> errors) {
    return new ApiException(
        ErrorCode.INVALID_SPEC,
        "the job document is not valid: " + errors.size() + " problem(s)",
        errors,
        null);
  }

  static boolean isYaml(String contentType) {
    return contentType != null && contentType.toLowerCase(Locale.ROOT).contains("yaml");
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
    if (cause instanceof IllegalArgumentException || cause instanceof NullPointerException) {
      return new FieldError(field, cause.getMessage() == null ? "is invalid" : cause.getMessage());
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
