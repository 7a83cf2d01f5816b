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
 * Reads one replica's log file, or the backend's notes about it, incrementally: complete lines
 * only, resuming where it stopped, so a file that is still being written can be followed. The file
 * is opened per read and never held, so closing a stream from another thread has nothing to
 * release. A line of the replica's own that looks like a note of the backend's is handed out marked
 * as the job's ({@link LogLineFormat#parseJobLine}); only the notes file, which no replica can
 * write, gives the backend's.
 */
final class ReplicaLogReader {
  private static final int CHUNK = 64 * 1024;

  /** The longest line handed over; longer ones are left out, with a line saying so. */
  static final int MAX_LINE = 1 << 20;

  private final String replica;
  private final Path file;
  private final boolean notes;
  private final ArrayDeque<LogLine> pending = new ArrayDeque<>();
  private long position;
  private boolean skipping;

  /**
   * The file's size when a long line without its end was last read: not read again until it grows.
   */
  private long longLineLookedAt = -1;

  private ReplicaLogReader(String replica, Path file, boolean notes) {
    this.replica = replica;
    this.file = file;
    this.notes = notes;
  }

  /** The lines the replica printed (its wrapper's file). */
  ReplicaLogReader(String replica, Path file) {
    this(replica, file, false);
  }

  /** The backend's own notes about the replica (a file only the gateway writes). */
  static ReplicaLogReader notes(String replica, Path file) {
    return new ReplicaLogReader(replica, file, true);
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
      if (skipping) {
        skipRest(channel);
        if (skipping) {
          return;
        }
      }
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
        longLine(channel, bytes);
        return;
      }
      position += start;
    } catch (NoSuchFileException e) {
      // the replica has not started yet
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * A line longer than a chunk is read whole, up to {@link #MAX_LINE}, so that it is handed over —
   * and its secrets masked — as one line: pieces would each hold only part of a secret, which no
   * mask matches. A longer one is left out, saying so (the replica's file still has it).
   */
  private void longLine(FileChannel channel, byte[] first) throws IOException {
    if (channel.size() == longLineLookedAt) {
      return; // the long line is still being written and nothing came since the last look
    }
    longLineLookedAt = channel.size();
    var buffer = ByteBuffer.allocate((int) Math.min(MAX_LINE, channel.size() - position));
    channel.read(buffer, position);
    var bytes = buffer.array();
    for (int i = first.length; i < buffer.position(); i++) {
      if (bytes[i] == '\n') {
        add(bytes, 0, i);
        position += i + 1;
        return;
      }
    }
    if (buffer.position() < MAX_LINE) {
      return; // still being written: wait for its end
    }
    int stamp = 0;
    while (stamp < 40 && first[stamp] != ' ') {
      stamp++;
    }
    var note =
        new String(first, 0, stamp, StandardCharsets.UTF_8)
            + " [trainyard] a line of more than "
            + (MAX_LINE >> 20)
            + " MiB was left out";
    pending.add(LogLineFormat.parse(replica, note));
    position += MAX_LINE;
    skipping = true;
    skipRest(channel);
  }

  /** Moves past the rest of a line that was left out, as far as it has been written. */
  private void skipRest(FileChannel channel) throws IOException {
    while (channel.size() > position) {
      var buffer = ByteBuffer.allocate((int) Math.min(CHUNK, channel.size() - position));
      channel.read(buffer, position);
      var bytes = buffer.array();
      for (int i = 0; i < buffer.position(); i++) {
        if (bytes[i] == '\n') {
          position += i + 1;
          skipping = false;
          return;
        }
      }
      position += buffer.position();
    }
  }

  private void add(byte[] bytes, int from, int to) {
    var raw = new String(bytes, from, to - from, StandardCharsets.UTF_8);
    pending.add(
        notes ? LogLineFormat.parse(replica, raw) : LogLineFormat.parseJobLine(replica, raw));
  }
}
