package io.trainyard.gateway.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Refuses a request body that arrives too slowly, so nobody holds a request thread by trickling an
 * upload (a byte every few seconds keeps every read inside Jetty's idle timeout; a few hundred such
 * requests took every thread of every team). Once {@code grace} has passed since the body's first
 * read, the body must have come at {@code minBytesPerSecond} on average since then, or the next
 * read fails with 408 (answered in the error shape, naming {@code body}).
 *
 * <p>Measured from the first read, not from the request's start as Jetty's own {@code
 * minRequestDataRate} is: a small body read after a second of waiting on the server's side (a busy
 * machine, a lock) would fail that for no fault of the client's.
 */
public final class SlowBodyFilter implements Filter {
  private final long minBytesPerSecond;
  private final long graceNanos;

  public SlowBodyFilter(long minBytesPerSecond, Duration grace) {
    this.minBytesPerSecond = minBytesPerSecond;
    this.graceNanos = grace.toNanos();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (minBytesPerSecond <= 0 || !(request instanceof HttpServletRequest http)) {
      chain.doFilter(request, response);
      return;
    }
    chain.doFilter(
        new HttpServletRequestWrapper(http) {
          private ServletInputStream wrapped;

          @Override
          public ServletInputStream getInputStream() throws IOException {
            if (wrapped == null) {
              wrapped = new Paced(super.getInputStream());
            }
            return wrapped;
          }
        },
        response);
  }

  private final class Paced extends ServletInputStream {
    private final ServletInputStream in;
    private long firstRead;
    private long bytes;

    Paced(ServletInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      started();
      int b = in.read();
      counted(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      started();
      int n = in.read(buffer, offset, length);
      counted(Math.max(n, 0));
      return n;
    }

    private void started() {
      if (firstRead == 0) {
        firstRead = System.nanoTime();
      }
    }

    private void counted(int n) {
      bytes += n;
      long elapsed = System.nanoTime() - firstRead;
      if (elapsed > graceNanos && bytes * 1_000_000_000L < minBytesPerSecond * elapsed) {
        throw new BadMessageException(408, "request body arrived too slowly");
      }
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
