package io.trainyard.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 written by hand to 127.0.0.1, for requests a well-behaved client refuses to send (an
 * ambiguous path, a header of 20 KB, a request line that does not parse). One request per
 * connection.
 */
public final class RawHttp {
  /** The status line's code, the headers as written, and the body. */
  public record Reply(int status, String head, String body) {
    public String header(String name) {
      for (var line : head.split("\r\n")) {
        var colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }

    public boolean isJson() {
      var type = header("Content-Type");
      return type != null && type.toLowerCase(Locale.ROOT).startsWith("application/json");
    }
  }

  private final int port;

  public RawHttp(int port) {
    this.port = port;
  }

  /** Sends {@code request} as is (it should end with an empty line) and reads the answer. */
  public Reply send(byte[] request) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(20_000);
      var out = socket.getOutputStream();
      try {
        out.write(request);
        out.flush();
      } catch (IOException e) {
        // The server may refuse and close before it has read everything; its answer still counts.
      }
      return readReply(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sends {@code head}, then {@code body} one byte per {@code pause}, as a client trickling its
   * upload would, until the server answers or the body is out; reads the answer.
   */
  public Reply sendSlowly(byte[] head, byte[] body, java.time.Duration pause) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(60_000);
      var out = socket.getOutputStream();
      var in = socket.getInputStream();
      try {
        out.write(head);
        out.flush();
        for (byte b : body) {
          out.write(b);
          out.flush();
          Thread.sleep(pause.toMillis());
          if (in.available() > 0) {
            break; // answered before the body was in
          }
        }
      } catch (IOException e) {
        // Refused and closed: the answer is what counts.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return readReply(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Reply get(String target, String... headerLines) {
    var request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (var h : headerLines) {
      request.append(h).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    return send(request.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Reads the answer until it is complete, the server closes, or the read times out. */
  private static Reply readReply(java.io.InputStream in) throws IOException {
    var buffer = new ByteArrayOutputStream();
    var chunk = new byte[8192];
    try {
      for (int n; (n = in.read(chunk)) > 0; ) {
        buffer.write(chunk, 0, n);
        if (complete(buffer.toString(StandardCharsets.UTF_8))) {
          break;
        }
      }
    } catch (SocketTimeoutException | java.net.SocketException e) {
      // What arrived is the answer.
    }
    return parse(buffer.toString(StandardCharsets.UTF_8));
  }

  // An answer with Content-Length is complete once that many body bytes are in.
  private static boolean complete(String text) {
    var end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      return false;
    }
    var reply = new Reply(0, text.substring(0, end), "");
    var length = reply.header("Content-Length");
    return length != null
        && text.substring(end + 4).getBytes(StandardCharsets.UTF_8).length
            >= Integer.parseInt(length);
  }

  private static Reply parse(String text) {
    var end = text.indexOf("\r\n\r\n");
    var head = end < 0 ? text : text.substring(0, end);
    var body = end < 0 ? "" : text.substring(end + 4);
    var status = 0;
    if (head.startsWith("HTTP/1.1 ") && head.length() >= 12) {
      status = Integer.parseInt(head.substring(9, 12));
    }
    var reply = new Reply(status, head, body);
    return "chunked".equalsIgnoreCase(reply.header("Transfer-Encoding"))
        ? new Reply(status, head, dechunk(body))
        : reply;
  }

  // Sizes are in bytes; the bodies here are ASCII JSON, so characters will do.
  private static String dechunk(String body) {
    var out = new StringBuilder();
    var at = 0;
    while (at < body.length()) {
      var eol = body.indexOf("\r\n", at);
      if (eol < 0) {
        break;
      }
      var size = Integer.parseInt(body.substring(at, eol).split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      out.append(body, eol + 2, Math.min(body.length(), eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    return out.toString();
  }
}
