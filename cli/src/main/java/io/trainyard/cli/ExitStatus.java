package io.trainyard.cli;

/**
 * The CLI's exit codes, the same for every command; scripts branch on them, so they never change
 * meaning (README "Exit status" has this table). A code is only ever added.
 */
enum ExitStatus {
  /** Done; a job waited for or watched ended SUCCEEDED. */
  OK(0, "ok"),
  /**
   * The job ended FAILED or CANCELLED, or had not ended when {@code --timeout} ran out; an audit
   * export did not verify. The request itself worked.
   */
  FAILED(1, "the job failed, was cancelled or did not end in time; a verification failed"),
  /** The command line is wrong: unknown command or option, missing value or file. */
  USAGE(2, "usage error"),
  /** Nothing answers at the gateway's (or IdP's) address: refused, unknown host, no connection. */
  UNREACHABLE(3, "the gateway cannot be reached"),
  /** The gateway refused the request (4xx): invalid spec, no offer, over budget, 403, 409, 429. */
  REFUSED(4, "the gateway refused the request"),
  /** The gateway failed (5xx), did not answer in time, or answered something not its API. */
  GATEWAY_ERROR(5, "the gateway failed"),
  /** No token, or the token or login was refused or has expired (401): `trainyard login`. */
  AUTH(6, "not logged in, or the token was refused or expired"),
  /** The job (or other named thing) does not exist, or is not one the caller may see (404). */
  NOT_FOUND(7, "not found");

  private final int code;
  private final String meaning;

  ExitStatus(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  int code() {
    return code;
  }

  String meaning() {
    return meaning;
  }

  /** The status for an answer of the gateway with this HTTP status (4xx or 5xx). */
  static ExitStatus forHttp(int status) {
    if (status == 401) {
      return AUTH;
    }
    if (status == 404) {
      return NOT_FOUND;
    }
    return status >= 400 && status < 500 ? REFUSED : GATEWAY_ERROR;
  }
}
