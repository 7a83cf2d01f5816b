package io.trainyard.gateway.http;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Sends a JSON answer of up to {@link #LIMIT} bytes (64 KiB) whole, with its {@code
 * Content-Length}, in one write. The gateway turns Jersey's own buffering off so that followed logs
 * stream (see {@code OUTBOUND_CONTENT_LENGTH_BUFFER} in the application), which left every JSON
 * answer chunked: Jackson's flush sent the body as a chunk and the close sent the last one, two
 * writes where one does (issue 19). A larger answer, or any other media type, streams as before. An
 * answer that fails while being written has written nothing yet, so the error can still be answered
 * whole.
 */
public final class SizedJsonAnswers implements WriterInterceptor {
  /**
   * Answers up to this size are held and sent with their length. A job or an error is a few KiB; a
   * long list passes it and streams, and so does a quote over many offers (85 KB for 40 in
   * docs/benchmarks.md, session 15). Each request in flight may hold this much, so it stays small:
   * 64 KiB times the server's threads.
   */
  static final int LIMIT = 1 << 16;

  @Override
  public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
    var type = context.getMediaType();
    if (type == null
        || !isJson(type)
        || context.getEntity() instanceof StreamingOutput
        || context.getHeaders().containsKey(HttpHeaders.CONTENT_LENGTH)) {
      context.proceed();
      return;
    }
    var original = context.getOutputStream();
    var held = new Held(original);
    context.setOutputStream(held);
    try {
      context.proceed();
    } finally {
      context.setOutputStream(original);
    }
    if (!held.spilled) {
      context.getHeaders().putSingle(HttpHeaders.CONTENT_LENGTH, held.buffer.size());
      held.buffer.writeTo(original);
    }
  }

  private static boolean isJson(MediaType type) {
    return "application".equals(type.getType())
        && ("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json"));
  }

  /** Holds what is written until it passes {@link #LIMIT}, then passes everything on. */
  private static final class Held extends OutputStream {
    private final OutputStream original;
    final ByteArrayOutputStream buffer = new ByteArrayOutputStream(2048);
    boolean spilled;

    Held(OutputStream original) {
      this.original = original;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (!spilled && buffer.size() + len > LIMIT) {
        spilled = true;
        buffer.writeTo(original);
      }
      if (spilled) {
        original.write(b, off, len);
      } else {
        buffer.write(b, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      if (spilled) {
        original.flush();
      }
    }

    @Override
    public void close() {
      // The answer is sent, and the stream closed, by the interceptor's caller.
    }
  }
}
