package io.routegateway.deploy;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code promtool} from Debian's {@code prometheus} package (.ci/run installs it when missing).
 */
final class Promtool {

    /** What one run printed and how it ended. */
    record Result(int exitCode, String output) {}

    private Promtool() {}

    static Path binary() {
        Optional<Path> found = Optional.empty();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, "promtool");
                if (Files.isExecutable(candidate)) {
                    found = Optional.of(candidate);
                    break;
                }
            }
        }
        return found.orElseThrow(
                () -> new IllegalStateException("promtool is not on the PATH: install Debian's prometheus package"
                        + " (apt-get install prometheus; .ci/run does it when promtool is missing)"));
    }

    static Result run(Path workingDir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary().toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command)
                    .directory(workingDir.toFile())
                    .redirectErrorStream(true)
                    .start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("promtool " + String.join(" ", args) + " did not finish in 120 s");
            }
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
