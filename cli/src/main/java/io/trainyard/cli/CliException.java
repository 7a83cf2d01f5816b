package io.trainyard.cli;

import java.util.List;

/**
 * A failure to report to the user: one {@code error:} line, optional detail lines, and an exit
 * status. Thrown anywhere in the CLI and printed once, by {@link TrainyardCli}, never with a stack
 * trace.
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ExitStatus status;
  private final List<String> details;
  private final String rawAnswer;

  private CliException(ExitStatus status, String message, List<String> details, String rawAnswer) {
    super(message);
    this.status = status;
    this.details = List.copyOf(details);
    this.rawAnswer = rawAnswer;
  }

  static CliException usage(String message) {
    return new CliException(ExitStatus.USAGE, message, List.of(), null);
  }

  static CliException failed(String message) {
    return new CliException(ExitStatus.FAILED, message, List.of(), null);
  }

  /** A failure with its own status and detail lines (already indented). */
  static CliException of(ExitStatus status, String message, List<String> details) {
    return new CliException(status, message, details, null);
  }

  static CliException unreachable(String url, String why) {
    return new CliException(
        ExitStatus.UNREACHABLE,
        "cannot reach the Trainyard gateway at " + url + ": " + why,
        List.of(
            "  is it running? (`java -jar gateway/target/trainyard.jar server`);"
                + " is the URL right? (--url or TRAINYARD_URL)"),
        null);
  }

  /**
   * The gateway answered 4xx/5xx; {@code rawAnswer} is its body, printed as is with JSON output.
   */
  static CliException answered(
      int httpStatus, String message, List<String> details, String rawAnswer) {
    return new CliException(ExitStatus.forHttp(httpStatus), message, details, rawAnswer);
  }

  /** The gateway refused the request (a 4xx other than 401 and 404). */
  static CliException refused(String message, List<String> details, String rawAnswer) {
    return new CliException(ExitStatus.REFUSED, message, details, rawAnswer);
  }

  ExitStatus status() {
    return status;
  }

  /** Lines printed under the {@code error:} line, already indented. */
  List<String> details() {
    return details;
  }

  /** The gateway's error body, or null if the failure did not come from an answer. */
  String rawAnswer() {
    return rawAnswer;
  }
}
