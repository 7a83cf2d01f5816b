package io.trainyard.gateway.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium ({@code /usr/bin/chromium}) driven through Debian's chromedriver ({@code
 * /usr/bin/chromedriver}) by Selenium; never a downloaded browser. Keeps the browser console for
 * {@link #consoleErrors()} and saves screenshots under {@code target/screenshots/}.
 */
public final class Browser implements AutoCloseable {
  public static final String CHROMIUM = "/usr/bin/chromium";
  public static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final Duration WAIT = Duration.ofSeconds(90);

  private final ChromeDriver driver;
  private final Path profile;
  private final List<LogEntry> console = new java.util.ArrayList<>();

  public Browser() {
    try {
      profile = Files.createTempDirectory("trainyard-chromium");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        "--user-data-dir=" + profile);
    var logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    var service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER))
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
  }

  /** Whether this machine has the Debian packages (.ci/run installs them). */
  public static boolean available() {
    return new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
  }

  public ChromeDriver driver() {
    return driver;
  }

  public void open(String url) {
    driver.get(url);
  }

  public WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  public List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Polls until the condition holds, or fails after 90 s. */
  public <T> T await(String what, ExpectedCondition<T> condition) {
    return new WebDriverWait(driver, WAIT, Duration.ofMillis(200))
        .withMessage(what)
        .until(condition);
  }

  public WebElement awaitVisible(String css) {
    return await(
        css,
        d -> {
          var found = d.findElements(By.cssSelector(css));
          return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
        });
  }

  /** Saves the page as {@code target/screenshots/NAME.png}; returns the file. */
  public Path screenshot(String name) {
    try {
      var dir = Path.of("target", "screenshots");
      Files.createDirectories(dir);
      var file = dir.resolve(name + ".png");
      Files.write(file, fullPage());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The whole page, not only the window (Chromium's DevTools protocol), up to 4000 px high. */
  @SuppressWarnings("unchecked")
  private byte[] fullPage() {
    try {
      var metrics = driver.executeCdpCommand("Page.getLayoutMetrics", java.util.Map.of());
      var size = (java.util.Map<String, Object>) metrics.get("cssContentSize");
      var width = ((Number) size.get("width")).doubleValue();
      var height = Math.min(4000, ((Number) size.get("height")).doubleValue());
      var shot =
          driver.executeCdpCommand(
              "Page.captureScreenshot",
              java.util.Map.of(
                  "format",
                  "png",
                  "captureBeyondViewport",
                  true,
                  "clip",
                  java.util.Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
      return java.util.Base64.getDecoder().decode((String) shot.get("data"));
    } catch (RuntimeException e) {
      return driver.getScreenshotAs(OutputType.BYTES);
    }
  }

  /** Every console message at SEVERE (errors, refused CSP, failed loads) since the start. */
  public List<String> consoleErrors() {
    console.addAll(driver.manage().logs().get(LogType.BROWSER).getAll());
    return console.stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        // a leftover temp profile is harmless
      }
    }
  }
}
