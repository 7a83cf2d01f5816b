package io.trainyard.cli;

/** The CLI's exit codes; scripts branch on them, so they never change meaning. */
enum ExitStatus {
  OK(0),
  /** The gateway refused the request, the request failed, or the job did not succeed. */
  FAILED(1),
  /** The command line is wrong. */
  USAGE(2),
  /** Nothing answers at the gateway's address. */
  UNREACHABLE(3);

  private final int code;

  ExitStatus(int code) {
    this.code = code;
  }

  int code() {
    return code;
  }
}
