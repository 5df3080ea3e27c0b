package io.weft.actors.testkit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * An SLF4J binding for this module's tests (selected with {@code -Dslf4j.provider}): it has a real
 * MDC and keeps every INFO+ record in memory, with the MDC at the time of the call, so tests can
 * check what the runtime logs. WARN and ERROR records are also printed to standard error.
 */
@SuppressWarnings("exports") // a test-only binding; its types are SLF4J's
public final class RecordingLoggerProvider implements SLF4JServiceProvider {

    /** A logged record. */
    public record Entry(Level level, String logger, String message, Map<String, String> mdc, Throwable error) {
    }

    static final List<Entry> ENTRIES = new CopyOnWriteArrayList<>();

    private final MDCAdapter mdc = new BasicMDCAdapter();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final ConcurrentHashMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, RecordingLogger::new);

    /** Created by SLF4J. */
    public RecordingLoggerProvider() {
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
    }

    @SuppressWarnings("serial")
    private static final class RecordingLogger extends LegacyAbstractLogger {
        RecordingLogger(String name) {
            this.name = name;
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable error) {
            String message = MessageFormatter.basicArrayFormat(pattern, args);
            Map<String, String> context = MDC.getCopyOfContextMap();
            ENTRIES.add(new Entry(level, name, message, context == null ? Map.of() : Map.copyOf(context), error));
            if (level.toInt() >= Level.WARN.toInt()) {
                System.err.println("[" + Thread.currentThread().getName() + "] " + level + " " + name + " - " + message
                        + (error == null ? "" : " (" + error + ")"));
            }
        }
    }
}
