// The REST API on this origin. Every call carries the in-memory access token as a bearer header;
// nothing here ever puts a token in a URL, a cookie or Web Storage.
import { accessToken } from "./auth.js";

/** An API error in the gateway's documented shape: {code, message, errors[], requestId}. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
    this.errors = body?.errors || [];
    this.requestId = body?.requestId;
  }

  /** One line a person can act on: the message and each field's reason. */
  describe() {
    const fields = this.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
    return [this.message, ...fields].join(" — ");
  }
}

async function headers(extra) {
  return { Accept: "application/json", ...extra, Authorization: `Bearer ${await accessToken()}` };
}

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { message: `${response.status} ${response.statusText}` };
  }
  return new ApiError(response.status, body);
}

/** GET/POST/DELETE a JSON resource; `body` is sent as JSON unless `contentType` says otherwise. */
export async function api(path, { method = "GET", body, contentType, extraHeaders, signal } = {}) {
  const h = await headers(extraHeaders);
  let payload = body;
  if (body !== undefined) {
    h["Content-Type"] = contentType || "application/json";
    if (!contentType) payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers: h, body: payload, signal });
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

/**
 * Streams a text resource line by line (log follow): fetch with the Authorization header, read
 * the body as it arrives. Resolves when the server ends the answer; abort with `signal`.
 */
export async function streamLines(path, onLine, signal) {
  const response = await fetch(path, { headers: await headers({ Accept: "text/plain" }), signal });
  if (!response.ok) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += value;
    const lines = rest.split("\n");
    rest = lines.pop();
    for (const line of lines) onLine(line);
  }
  if (rest) onLine(rest);
}

/** A query string from an object, leaving out empty values; arrays repeat the key. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) value.forEach((v) => v && q.append(key, v));
    else if (value !== undefined && value !== null && value !== "") q.append(key, value);
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
