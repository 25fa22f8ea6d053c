package io.routegateway.state.support;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log line of the test JVM while started, with its parameters and stack trace: what a check
 * that no secret is ever logged reads.
 */
public final class CapturedLog extends Handler {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    public CapturedLog start() {
        setLevel(Level.ALL);
        Logger.getLogger("").addHandler(this);
        return this;
    }

    public void stop() {
        Logger.getLogger("").removeHandler(this);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void publish(LogRecord record) {
        StringBuilder line = new StringBuilder(String.valueOf(record.getMessage()));
        if (record.getParameters() != null) {
            line.append(' ').append(Arrays.toString(record.getParameters()));
        }
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append(' ').append(trace);
        }
        lines.add(line.toString());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
