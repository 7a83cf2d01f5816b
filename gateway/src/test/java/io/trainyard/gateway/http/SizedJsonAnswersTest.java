package io.trainyard.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JSON answer is held and sent whole with its length; a large one, or another media type, streams
 * as it is written; an answer that fails half-way has sent nothing.
 */
class SizedJsonAnswersTest {
  private final SizedJsonAnswers sized = new SizedJsonAnswers();

  @Test
  void aJsonAnswerIsSentWholeWithItsLengthAndTheWritersFlushIsHeldBack() throws IOException {
    var answer = new Answer(MediaType.APPLICATION_JSON_TYPE, body(3000));
    sized.aroundWriteTo(answer);
    assertThat(answer.sent.toByteArray()).isEqualTo(answer.body);
    assertThat(answer.headers.getFirst(HttpHeaders.CONTENT_LENGTH)).isEqualTo(3000);
    assertThat(answer.flushesSent).isZero();
    assertThat(answer.writesSeenBeforeProceedEnded).isZero();
  }

  @Test
  void aProblemJsonAnswerIsSizedToo() throws IOException {
    var answer = new Answer(MediaType.valueOf("application/problem+json"), body(10));
    sized.aroundWriteTo(answer);
    assertThat(answer.headers.getFirst(HttpHeaders.CONTENT_LENGTH)).isEqualTo(10);
  }

  @Test
  void anAnswerPastTheLimitStreamsWithoutALength() throws IOException {
    var answer = new Answer(MediaType.APPLICATION_JSON_TYPE, body(SizedJsonAnswers.LIMIT + 10));
    sized.aroundWriteTo(answer);
    assertThat(answer.sent.toByteArray()).isEqualTo(answer.body);
    assertThat(answer.headers).doesNotContainKey(HttpHeaders.CONTENT_LENGTH);
    assertThat(answer.writesSeenBeforeProceedEnded).isPositive();
    assertThat(answer.flushesSent).isPositive();
  }

  @Test
  void otherMediaTypesStreamAsWritten() throws IOException {
    var answer = new Answer(MediaType.TEXT_PLAIN_TYPE, body(3000));
    sized.aroundWriteTo(answer);
    assertThat(answer.sent.toByteArray()).isEqualTo(answer.body);
    assertThat(answer.headers).doesNotContainKey(HttpHeaders.CONTENT_LENGTH);
    assertThat(answer.flushesSent).isPositive();
  }

  @Test
  void anAnswerThatFailsHalfWayHasSentNothing() {
    var answer = new Answer(MediaType.APPLICATION_JSON_TYPE, body(3000));
    answer.failAfterHalf = true;
    assertThatThrownBy(() -> sized.aroundWriteTo(answer)).isInstanceOf(IOException.class);
    assertThat(answer.sent.size()).isZero();
    assertThat(answer.headers).doesNotContainKey(HttpHeaders.CONTENT_LENGTH);
  }

  private static byte[] body(int size) {
    var bytes = new byte[size];
    Arrays.fill(bytes, (byte) 'x');
    bytes[0] = '"';
    bytes[size - 1] = '"';
    return bytes;
  }

  /**
   * Jersey's side of one answer: {@code proceed} writes the body as Jackson does, in two halves
   * with a flush between, to whatever stream is set at that moment.
   */
  private static final class Answer implements WriterInterceptorContext {
    final byte[] body;
    final MultivaluedMap<String, Object> headers = new MultivaluedHashMap<>();
    final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    int flushesSent;
    int writesSeenBeforeProceedEnded;
    boolean failAfterHalf;
    private final MediaType type;
    private OutputStream stream =
        new OutputStream() {
          @Override
          public void write(int b) {
            sent.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            sent.write(b, off, len);
          }

          @Override
          public void flush() {
            flushesSent++;
          }
        };

    Answer(MediaType type, byte[] body) {
      this.type = type;
      this.body = body;
    }

    @Override
    public void proceed() throws IOException {
      var half = body.length / 2;
      stream.write(body, 0, half);
      stream.flush();
      if (failAfterHalf) {
        throw new IOException("the entity could not be written");
      }
      stream.write(body, half, body.length - half);
      stream.flush();
      writesSeenBeforeProceedEnded = sent.size();
    }

    @Override
    public Object getEntity() {
      return "entity";
    }

    @Override
    public void setEntity(Object entity) {}

    @Override
    public OutputStream getOutputStream() {
      return stream;
    }

    @Override
    public void setOutputStream(OutputStream os) {
      stream = os;
    }

    @Override
    public MultivaluedMap<String, Object> getHeaders() {
      return headers;
    }

    @Override
    public Object getProperty(String name) {
      return null;
    }

    @Override
    public Collection<String> getPropertyNames() {
      return List.of();
    }

    @Override
    public void setProperty(String name, Object object) {}

    @Override
    public void removeProperty(String name) {}

    @Override
    public Annotation[] getAnnotations() {
      return new Annotation[0];
    }

    @Override
    public void setAnnotations(Annotation[] annotations) {}

    @Override
    public Class<?> getType() {
      return String.class;
    }

    @Override
    public void setType(Class<?> type) {}

    @Override
    public Type getGenericType() {
      return String.class;
    }

    @Override
    public void setGenericType(Type genericType) {}

    @Override
    public MediaType getMediaType() {
      return type;
    }

    @Override
    public void setMediaType(MediaType mediaType) {}
  }
}
