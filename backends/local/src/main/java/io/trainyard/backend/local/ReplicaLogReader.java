package io.trainyard.backend.local;

import io.trainyard.spi.LogLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;

/**
 * Reads one replica's log file incrementally: complete lines only, resuming where it stopped, so a
 * file that is still being written can be followed. The file is opened per read and never held, so
 * closing a stream from another thread has nothing to release.
 */
final class ReplicaLogReader {
  private static final int CHUNK = 64 * 1024;

  private final String replica;
  private final Path file;
  private final ArrayDeque<LogLine> pending = new ArrayDeque<>();
  private long position;

  ReplicaLogReader(String replica, Path file) {
    this.replica = replica;
    this.file = file;
  }

  /** The next complete line, or null when none has been written yet. */
  LogLine peek() {
    if (pending.isEmpty()) {
      readMore();
    }
    return pending.peek();
  }

  LogLine take() {
    var line = peek();
    pending.poll();
    return line;
  }

  private void readMore() {
    try (var channel = FileChannel.open(file, StandardOpenOption.READ)) {
      if (channel.size() <= position) {
        return;
      }
      var buffer = ByteBuffer.allocate((int) Math.min(CHUNK, channel.size() - position));
      channel.read(buffer, position);
      var bytes = buffer.array();
      int length = buffer.position();
      int start = 0;
      for (int i = 0; i < length; i++) {
        if (bytes[i] == '\n') {
          add(bytes, start, i);
          start = i + 1;
        }
      }
      if (start == 0 && length == CHUNK) {
        add(bytes, 0, length); // a line longer than a chunk: hand it over in pieces
        start = length;
      }
      position += start;
    } catch (NoSuchFileException e) {
      // the replica has not started yet
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private void add(byte[] bytes, int from, int to) {
    var raw = new String(bytes, from, to - from, StandardCharsets.UTF_8);
    pending.add(LogLineFormat.parse(replica, raw));
  }
}
