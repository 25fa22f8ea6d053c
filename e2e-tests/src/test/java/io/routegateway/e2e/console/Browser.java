package io.routegateway.e2e.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.FluentWait;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through Debian's chromedriver: both executables are named, so
 * Selenium never looks for (or downloads) a driver or a browser of its own. Every session starts
 * from a fresh profile, and screenshots go to {@code e2e-tests/target/console-screenshots}.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("e2e.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("e2e.chromedriver", "/usr/bin/chromedriver"));
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Path profile;
    private final ChromeDriver driver;

    Browser() {
        try {
            profile = Files.createTempDirectory("console-e2e-chromium-");
            Files.createDirectories(SCREENSHOTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
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
                "--window-size=1600,1000",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1600, 1000));
    }

    static boolean available() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    WebDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    <T> T await(String what, Function<WebDriver, T> condition) {
        FluentWait<WebDriver> wait = new WebDriverWait(driver, WAIT)
                .withMessage(what)
                .pollingEvery(Duration.ofMillis(200))
                // the console re-renders every few seconds (live polling): an element read a moment
                // ago may have been replaced, so a condition is simply evaluated again; a click that
                // landed on an overlay still fading out is simply tried again too
                .ignoring(StaleElementReferenceException.class)
                .ignoring(ElementClickInterceptedException.class);
        try {
            return wait.until(condition);
        } catch (TimeoutException e) {
            // what the page showed when the wait gave up: a failure in a long suite can then be read
            String name = screenshot("timeout-" + System.currentTimeMillis());
            Object text = driver.executeScript("return document.body ? document.body.innerText : ''");
            String shown = String.valueOf(text);
            System.out.println("console timeout (" + what + "), screenshot " + name + ", page text:\n"
                    + shown.substring(0, Math.min(shown.length(), 4_000)));
            throw e;
        }
    }

    /** The first visible element matching, once there is one. */
    WebElement visible(By by) {
        return await(
                "visible: " + by,
                d -> d.findElements(by).stream()
                        .filter(WebElement::isDisplayed)
                        .findFirst()
                        .orElse(null));
    }

    /** Waits until some visible element matching has exactly this text, and returns it. */
    WebElement withText(By by, String text) {
        return await(
                "an element " + by + " with text '" + text + "'",
                d -> d.findElements(by).stream()
                        .filter(element -> element.isDisplayed()
                                && element.getText().trim().equals(text))
                        .findFirst()
                        .orElse(null));
    }

    void gone(By by) {
        await("gone: " + by, d -> d.findElements(by).stream().noneMatch(WebElement::isDisplayed));
    }

    List<WebElement> all(By by) {
        return driver.findElements(by);
    }

    void hover(WebElement element) {
        new Actions(driver).moveToElement(element).perform();
    }

    /**
     * Hovers the target and returns the first visible element of the panel it opens. The pointer
     * never leaves the target: leaving would start closing the panel (antd opens and closes hover
     * panels after a 0.1 s delay) and a check right after coming back would always come too early.
     * While the panel is not shown the pointer moves again onto the target's current position, one
     * pixel to the other side each time, so a move the page did not register, or a target that a
     * re-render replaced or shifted under the pointer, is hovered for real.
     */
    WebElement hoverOpens(By target, By panel) {
        int[] moves = {0};
        long[] lastMove = {0};
        return await("visible after hovering " + target + ": " + panel, d -> {
            WebElement shown = d.findElements(panel).stream()
                    .filter(WebElement::isDisplayed)
                    .findFirst()
                    .orElse(null);
            if (shown != null) {
                return shown;
            }
            if (System.nanoTime() - lastMove[0] >= Duration.ofSeconds(1).toNanos()) {
                WebElement element = d.findElements(target).stream()
                        .filter(WebElement::isDisplayed)
                        .findFirst()
                        .orElse(null);
                if (element != null) {
                    new Actions(d)
                            .moveToElement(element, moves[0]++ % 2 == 0 ? 0 : 1, 0)
                            .perform();
                    lastMove[0] = System.nanoTime();
                }
            }
            return null;
        });
    }

    void type(By by, String text) {
        WebElement field = visible(by);
        field.clear();
        field.sendKeys(text);
    }

    /** Clicks the first visible match, finding it again if a re-render replaced it meanwhile. */
    void click(By by) {
        await("click " + by, d -> {
            WebElement element = d.findElements(by).stream()
                    .filter(WebElement::isDisplayed)
                    .findFirst()
                    .orElse(null);
            if (element == null) {
                return null;
            }
            element.click();
            return true;
        });
    }

    /**
     * Clicks the first visible match until {@code proof} is visible, clicking again at most once a
     * second. A click during an opening animation (the drawer slides in) can land where the target
     * was a moment earlier and do nothing; a single click would then leave the page unchanged.
     */
    void clickUntil(By by, By proof) {
        long[] lastClick = {0};
        await("click " + by + " until visible: " + proof, d -> {
            if (d.findElements(proof).stream().anyMatch(WebElement::isDisplayed)) {
                return true;
            }
            if (System.nanoTime() - lastClick[0] >= Duration.ofSeconds(1).toNanos()) {
                WebElement element = d.findElements(by).stream()
                        .filter(WebElement::isDisplayed)
                        .findFirst()
                        .orElse(null);
                if (element != null) {
                    element.click();
                    lastClick[0] = System.nanoTime();
                }
            }
            return null;
        });
    }

    /** Saves a PNG of the window; returns its file name. */
    String screenshot(String name) {
        Path file = SCREENSHOTS.resolve(name + ".png");
        try {
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("console screenshot: " + file.toAbsolutePath());
        return file.getFileName().toString();
    }

    /** A Chrome DevTools Protocol command (network blocking, say). */
    java.util.Map<String, Object> cdp(String command, java.util.Map<String, Object> parameters) {
        return driver.executeCdpCommand(command, parameters);
    }

    /** Resizes the window (the layout at a laptop's or a small screen's width). */
    void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** A script that calls back (its last argument) when done, given up to a minute. */
    Object asyncScript(String script, Object... arguments) {
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        return driver.executeAsyncScript(script, arguments);
    }

    Object script(String script, Object... arguments) {
        return driver.executeScript(script, arguments);
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            } catch (IOException ignored) {
                // a temporary profile left behind is harmless
            }
        }
    }
}
