package io.weft.actors.loom.internal;

import io.weft.actors.runtime.internal.cell.CellHost;
import io.weft.actors.runtime.internal.cell.ThreadPerActorScheduler;
import io.weft.actors.runtime.internal.schedule.ThreadSchedulerFactory;
import io.weft.actors.ActorSystem;
import io.weft.actors.spi.Scheduler;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * Gives each thread-based actor a virtual thread; with the system property
 * {@code weft.threadActors=continuations} (and {@code --add-exports java.base/jdk.internal.vm=io.weft.actors.loom}),
 * runs each actor's body as a continuation on a few shared carriers instead.
 */
public final class VirtualThreadSchedulerFactory implements ThreadSchedulerFactory {

    /** The system property that chooses how thread-based actors run. */
    static final String MODE_PROPERTY = "weft.threadActors";

    /** Logged once per JVM when continuations were asked for but cannot be used. */
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();

    /** Used by {@link java.util.ServiceLoader}. */
    public VirtualThreadSchedulerFactory() {
    }

    @Override
    public Scheduler create(ActorSystem system) {
        String mode = System.getProperty(MODE_PROPERTY, "virtual-threads").trim().toLowerCase(Locale.ROOT);
        if (mode.equals("continuations") && system instanceof CellHost host) {
            if (JdkContinuations.UNAVAILABLE == null) {
                return new ContinuationScheduler(system.name(), host.timerWheel(), Runtime.getRuntime().availableProcessors());
            }
            if (FALLBACK_LOGGED.compareAndSet(false, true)) {
                LoggerFactory.getLogger(VirtualThreadSchedulerFactory.class).info(
                        "-D{}=continuations: {}; thread-based actors run on a virtual thread each", MODE_PROPERTY, JdkContinuations.UNAVAILABLE);
            }
        } else if (!mode.equals("virtual-threads") && !mode.equals("continuations") && FALLBACK_LOGGED.compareAndSet(false, true)) {
            LoggerFactory.getLogger(VirtualThreadSchedulerFactory.class).info(
                    "-D{}={}: unknown (choose virtual-threads or continuations); thread-based actors run on a virtual thread each",
                    MODE_PROPERTY, mode);
        }
        // Named after the actor (weft-<system>-actor-<name>): one String per thread, so that a
        // thread dump or a profiler names the actor whose thread it is.
        return new ThreadPerActorScheduler("virtual-thread", Thread.ofVirtual(), "weft-" + system.name() + "-actor-");
    }
}
