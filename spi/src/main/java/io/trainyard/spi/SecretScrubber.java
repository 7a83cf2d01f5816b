package io.trainyard.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets from text a job printed before it is stored or shown anywhere (failure reasons,
 * job events, the audit log, log archives, log lines served). Two kinds are removed:
 *
 * <ul>
 *   <li>the job's own {@code secretEnv} values, where the backend knows them (the local backend
 *       reads them; a Kubernetes backend hands a {@code secretKeyRef} to the cluster and never sees
 *       them), each of at least {@value #MIN_VALUE_CHARS} characters, and each line of a multi-line
 *       value;
 *   <li>anything shaped like a credential, wherever it comes from: JWTs ({@code eyJ….eyJ….…}),
 *       {@code Bearer} tokens, AWS access key ids ({@code AKIA…}/{@code ASIA…}), PEM private keys,
 *       GitHub ({@code ghp_…}), Slack ({@code xox?-…}) and Google API ({@code AIza…}) keys, and the
 *       value after a name containing {@code password}, {@code passwd}, {@code secret}, {@code
 *       token}, {@code api_key}/{@code apikey}, {@code access_key} or {@code credential} followed
 *       by {@code =} or {@code :} when it is {@value #MIN_VALUE_CHARS} characters or longer.
 * </ul>
 *
 * Each is replaced by {@value #MASK}. Patterns have bounded repetition and no nested quantifiers,
 * so scrubbing is linear in the text. Immutable and thread-safe.
 */
public final class SecretScrubber {
  /** What a removed secret reads as. */
  public static final String MASK = "[REDACTED]";

  /** Shorter values are not scrubbed: they would mask ordinary words and numbers. */
  public static final int MIN_VALUE_CHARS = 6;

  private static final List<Pattern> SHAPES =
      List.of(
          Pattern.compile(
              "-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\\s\\S]{0,20000}?-----END [A-Z ]{0,40}PRIVATE"
                  + " KEY-----"),
          Pattern.compile("eyJ[A-Za-z0-9_-]{2,}\\.eyJ[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]*"),
          Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"),
          Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{30,}"),
          Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
          Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"),
          // Trainyard's own job metrics tokens (TRAINYARD_METRICS_TOKEN)
          Pattern.compile("\\btym_[A-Za-z0-9_-]{40,}"));

  /** The scheme word is kept, so a reader still sees what was there. */
  private static final Pattern BEARER =
      Pattern.compile("(?i)\\b(bearer)(\\s+)[A-Za-z0-9._~+/=-]{8,}");

  /** {@code name=value} and {@code name: value}, with the name kept. */
  private static final Pattern NAMED =
      Pattern.compile(
          "(?i)([A-Za-z0-9_.-]{0,40}(?:password|passwd|secret|token|api[_-]?key|access[_-]?key"
              + "|credential)[A-Za-z0-9_.-]{0,40}[\"']?\\s{0,3}[=:]\\s{0,3}[\"']?)([^\\s\"'&,;]{"
              + MIN_VALUE_CHARS
              + ",})");

  private static final SecretScrubber SHAPES_ONLY = new SecretScrubber(List.of());

  private final List<String> values;

  private SecretScrubber(List<String> values) {
    this.values = values;
  }

  /** Removes credential-shaped text only: for callers that do not know the job's secrets. */
  public static SecretScrubber shapes() {
    return SHAPES_ONLY;
  }

  /** Removes these secret values (and each of their lines) as well as credential shapes. */
  public static SecretScrubber of(Collection<String> secretValues) {
    var all = new ArrayList<String>();
    for (var value : secretValues) {
      if (value == null) {
        continue;
      }
      addIfLong(all, value);
      addIfLong(all, value.strip());
      for (var line : value.split("\\R")) {
        addIfLong(all, line.strip());
      }
    }
    // Longest first, so a value containing another is masked whole.
    all.sort(Comparator.comparingInt(String::length).reversed());
    return all.isEmpty() ? SHAPES_ONLY : new SecretScrubber(List.copyOf(all));
  }

  private static void addIfLong(List<String> all, String value) {
    if (value.length() >= MIN_VALUE_CHARS && !all.contains(value)) {
      all.add(value);
    }
  }

  /** {@code in} with each line's text scrubbed; closing it closes {@code in}. */
  public LogStream scrub(LogStream in) {
    return new LogStream() {
      @Override
      public java.util.Optional<LogLine> next() throws InterruptedException {
        return in.next().map(l -> new LogLine(l.replica(), l.at(), scrub(l.text())));
      }

      @Override
      public void close() {
        in.close();
      }
    };
  }

  /** {@code text} with every secret this scrubber knows replaced by {@value #MASK}; null stays. */
  public String scrub(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    var out = text;
    for (var value : values) {
      if (out.contains(value)) {
        out = out.replace(value, MASK);
      }
    }
    for (var shape : SHAPES) {
      out = shape.matcher(out).replaceAll(Matcher.quoteReplacement(MASK));
    }
    out = BEARER.matcher(out).replaceAll("$1$2" + Matcher.quoteReplacement(MASK));
    out = NAMED.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
    return out;
  }
}
