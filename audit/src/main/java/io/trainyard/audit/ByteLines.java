package io.trainyard.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream into lines of raw bytes at {@code \n}, without decoding: exports are UTF-8 and
 * the verifier parses bytes, so decoding each line into a String and encoding it again would be
 * wasted work. A final line without a line feed is returned too. Not thread-safe.
 */
final class ByteLines {
  private final InputStream in;
  private final byte[] buffer = new byte[1 << 20];
  private int position;
  private int limit;
  private boolean ended;

  ByteLines(InputStream in) {
    this.in = in;
  }

  /** The next line without its line feed, or null at the end. */
  byte[] next() throws IOException {
    ByteArrayOutputStream spill = null;
    while (true) {
      if (position == limit && !fill()) {
        return spill == null || spill.size() == 0 ? null : spill.toByteArray();
      }
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      if (position < limit) {
        var line = Arrays.copyOfRange(buffer, start, position);
        position++; // the line feed
        if (spill == null) {
          return line;
        }
        spill.write(line);
        return spill.toByteArray();
      }
      spill = spill == null ? new ByteArrayOutputStream() : spill;
      spill.write(buffer, start, position - start);
    }
  }

  private boolean fill() throws IOException {
    if (ended) {
      return false;
    }
    int read = in.read(buffer);
    if (read < 0) {
      ended = true;
      return false;
    }
    position = 0;
    limit = read;
    return true;
  }
}
