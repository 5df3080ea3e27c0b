package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorSystem;
import io.weft.actors.ActorSystem.Settings;
import io.weft.actors.runtime.internal.schedule.FairScheduler;
import io.weft.actors.runtime.internal.schedule.ForkJoinScheduler;
import io.weft.actors.runtime.internal.schedule.PiggybackScheduler;
import io.weft.actors.runtime.internal.cell.ThreadPerActorScheduler;
import io.weft.actors.runtime.internal.schedule.ThreadSchedulerFactory;
import io.weft.actors.runtime.internal.schedule.TimerScheduler;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.locks.ReentrantLock;

/** The built-in schedulers of one system ({@link ActorSystem#schedulers()}). */
final class BuiltinSchedulers implements ActorSystem.Schedulers {

/* design
 * The built-in schedulers of one system: the ForkJoin scheduler, made with the system; the
 * dedicated-thread, fair and virtual-thread schedulers, made on first use under the system's
 * init lock and registered as the system's own (shut down at close); piggyback and timer
 * schedulers, one per call or shared, owning no thread.
 */

private final WeftSystem system;
private final ForkJoinScheduler forkJoin;
private final Settings settings;
private final List<Scheduler> owned;
private final ReentrantLock initLock;
private volatile Scheduler dedicated;
private volatile Scheduler fair;
private volatile Scheduler threadScheduler;

BuiltinSchedulers(WeftSystem system, ForkJoinScheduler forkJoin, Settings settings, List<Scheduler> owned, ReentrantLock initLock) {
    this.system = system;
    this.forkJoin = forkJoin;
    this.settings = settings;
    this.owned = owned;
    this.initLock = initLock;
}

    private final PiggybackScheduler piggyback = new PiggybackScheduler();

    @Override
    public Scheduler forkJoin() {
        return forkJoin;
    }

    @Override
    public Scheduler dedicatedThread() {
        Scheduler s = dedicated;
        if (s == null) {
            initLock.lock(); // only on first use
            try {
                s = dedicated;
                if (s == null) {
                    s = new ThreadPerActorScheduler("dedicated-thread", Thread.ofPlatform().daemon(true),
                            "weft-" + settings.name() + "-actor-");
                    owned.add(s);
                    dedicated = s;
                }
            } finally {
                initLock.unlock();
            }
        }
        return s;
    }

    @Override
    public Scheduler piggyback() {
        return piggyback;
    }

    @Override
    public Scheduler timer(Duration period) {
        Objects.requireNonNull(period, "period");
        return new TimerScheduler(system::timer, period, settings.batchSize());
    }


    @Override
    public Scheduler fair() {
        Scheduler s = fair;
        if (s == null) {
            initLock.lock(); // only on first use
            try {
                s = fair;
                if (s == null) {
                    s = new FairScheduler("weft-" + settings.name() + "-fair", 1, settings.batchSize());
                    owned.add(s);
                    fair = s;
                }
            } finally {
                initLock.unlock();
            }
        }
        return s;
    }

    @Override
    public Scheduler virtualThread() {
        Scheduler s = threadScheduler;
        if (s == null) {
            initLock.lock(); // only on first use
            try {
                s = threadScheduler;
                if (s == null) {
                    ThreadSchedulerFactory factory = ServiceLoader.load(ThreadSchedulerFactory.class, WeftSystem.class.getClassLoader())
                            .findFirst()
                            .or(() -> ServiceLoader.load(ThreadSchedulerFactory.class).findFirst())
                            .orElseThrow(() -> new UnsupportedOperationException(
                                    "thread-based actors need io.weft:actors-loom on the class or module path"));
                    s = factory.create(system);
                    owned.add(s);
                    threadScheduler = s;
                }
            } finally {
                initLock.unlock();
            }
        }
        return s;
    }

    /** @return the fair scheduler if it has been made, else null (close asks whether a thread is its) */
    Scheduler fairIfMade() {
        return fair;
    }
}
