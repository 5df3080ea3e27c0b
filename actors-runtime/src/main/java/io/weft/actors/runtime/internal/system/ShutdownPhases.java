package io.weft.actors.runtime.internal.system;

import io.weft.actors.CoordinatedShutdown;
import io.weft.actors.runtime.internal.cell.Cell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CoordinatedShutdown} of one system: runs the phases and their tasks, handles the
 * pending mail, closes the system ({@link SystemClose}) and logs the summary.
 */
final class ShutdownPhases implements CoordinatedShutdown {

    /* design
     * Once: `started` (CAS) picks the one thread that runs the phases (runAll): the caller of
     * close(), the thread of run(), or the JVM shutdown hook. Before it, tasks may be added to any
     * phase; `current` (guarded by `lock`) is the index of the phase that has started, and a task
     * for a phase at or before it is refused, so every task accepted runs exactly once.
     *
     * A phase starts all its tasks (each Supplier on the running thread, in the order added), then
     * waits for all of their stages at most the phase's timeout, on the running thread, with no
     * monitor held. A task that throws, returns null or completes exceptionally is failed; one not
     * done at the timeout is timed out (left running; the shutdown does not cancel it); both are
     * logged at WARN and counted, and the phases go on. Until the terminate step the system is
     * fully open (isClosed() is false): tasks may send, ask and spawn.
     *
     * Terminate step (after the tasks of actor-system-terminate): with PendingMail.DRAIN, wait
     * (parking with backoff, bounded by the drain deadline) until no live actor has a queued
     * message and none is in a turn (active; thread-based actors on their own thread aside, see
     * pendingWork); then SystemClose.close(), which stops every actor and sends what is still
     * queued to dead letters (SYSTEM_CLOSED). A turn adds its batch's handled messages to the
     * counters at the batch's end, so the wait for the turns to end is what makes the drain's
     * handled count complete: a turn still running when the mailboxes are empty holds messages
     * not yet counted. The summary counts messages handled during the drain (the counters'
     * difference over it) and dead letters published from the start of runAll to the end of the
     * close.
     *
     * Threads: close() from one of the system's own threads (an actor's handler, a pool worker)
     * cannot wait there (the worker would wait for work queued behind itself). With nothing to
     * wait for (no task, no drain) it closes as SystemClose does on such a thread; otherwise it runs
     * runAll on a new thread and returns. A close() while another thread runs the phases waits for
     * `done` (bounded by the sum of the phase timeouts, the drain deadline and the close bound)
     * and then for the close, unless it is on one of the system's own threads (it returns).
     *
     * The JVM shutdown hook (Settings.jvmShutdownHook) is registered at construction and calls
     * close(); a close on any other thread removes it at the end, so a closed system leaves no
     * hook (and no reference to itself) in the Runtime.
     */

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatedShutdown.class);

    private final WeftSystem system;
    private final CoordinatedShutdown.Settings settings;
    private final SystemClose close;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, List<Task>> tasks = new LinkedHashMap<>();
    private int current = -1;
    private boolean anyTask;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<Summary> done = new CompletableFuture<>();
    private final Thread hook;

    private record Task(String name, Supplier<? extends CompletionStage<?>> body) {
    }

    ShutdownPhases(WeftSystem system, CoordinatedShutdown.Settings settings, SystemClose close) {
        this.system = system;
        this.settings = settings;
        this.close = close;
        for (String p : PHASES) {
            tasks.put(p, new ArrayList<>());
        }
        if (settings.jvmShutdownHook()) {
            hook = new Thread(this::close, "weft-" + system.name() + "-shutdown-hook");
            Runtime.getRuntime().addShutdownHook(hook);
        } else {
            hook = null;
        }
    }

    /** @return the registered JVM shutdown hook, or null */
    Thread jvmHook() {
        return hook;
    }

    @Override
    public void addTask(String phase, String name, Supplier<? extends CompletionStage<?>> task) {
        CoordinatedShutdown.Settings.checkPhase(phase);
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name: a shutdown task of system \"" + system.name()
                    + "\" needs a non-blank name (it names the task in the log and the summary)");
        }
        if (task == null) {
            throw new NullPointerException("task: shutdown task \"" + name + "\" of phase " + phase + " of system \""
                    + system.name() + "\" is null; give a Supplier that starts the work and returns its CompletionStage");
        }
        int index = PHASES.indexOf(phase);
        lock.lock();
        try {
            if (index <= current) {
                throw new IllegalStateException("addTask: phase " + phase + " of system \"" + system.name()
                        + "\" has already started, so task \"" + name + "\" would never run; add tasks before close()");
            }
            tasks.get(phase).add(new Task(name, task));
            anyTask = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletableFuture<Summary> run() {
        if (started.compareAndSet(false, true)) {
            startThread();
        }
        return done;
    }

    /** {@link WeftSystem#close()}. */
    void close() {
        if (started.compareAndSet(false, true)) {
            if (close.onOwnThread()) {
                if (!hasWork()) {
                    runAll(); // SystemClose stops the actors here and finishes on its closer thread
                } else {
                    startThread(); // the phases wait: not on this thread
                }
                return;
            }
            runAll();
            return;
        }
        if (close.onOwnThread() || Thread.currentThread() == hook) {
            return;
        }
        try {
            done.get(waitBoundNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("coordinated shutdown of system {} has not finished in time; closing", system.name());
        }
        close.close(); // waits until the system is closed (idempotent)
    }

    private boolean hasWork() {
        lock.lock();
        try {
            return anyTask || settings.pendingMail() == PendingMail.DRAIN;
        } finally {
            lock.unlock();
        }
    }

    private long waitBoundNanos() {
        long n = settings.drainDeadline().toNanos() + TimeUnit.SECONDS.toNanos(70);
        for (String p : PHASES) {
            n += settings.timeoutOf(p).toNanos();
        }
        return n;
    }

    private void startThread() {
        Thread t = new Thread(this::runAll, "weft-" + system.name() + "-shutdown");
        t.setDaemon(true);
        t.start();
    }

    /** Runs every phase, the terminate step, logs the summary; once. */
    private void runAll() {
        long start = System.nanoTime();
        long deadBefore = system.deadLetterOffice().count();
        List<String> phasesRun = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> timedOut = new ArrayList<>();
        int tasksRun = 0;
        long drained = 0;
        boolean drainCompleted = true;
        boolean worked = false;
        try {
            for (int i = 0; i < PHASES.size(); i++) {
                String phase = PHASES.get(i);
                List<Task> list;
                lock.lock();
                try {
                    current = i;
                    list = List.copyOf(tasks.get(phase));
                } finally {
                    lock.unlock();
                }
                tasksRun += list.size();
                runPhase(phase, list, failed, timedOut);
                phasesRun.add(phase);
            }
            worked = tasksRun > 0;
            if (settings.pendingMail() == PendingMail.DRAIN) {
                worked = true;
                long handledBefore = system.metrics().messagesHandled();
                drainCompleted = drain();
                drained = system.metrics().messagesHandled() - handledBefore;
            }
        } catch (RuntimeException | Error e) {
            LOG.error("coordinated shutdown of system {} failed; closing the system", system.name(), e);
        } finally {
            close.close();
            Summary s = new Summary(phasesRun, tasksRun, failed, timedOut, drained, drainCompleted,
                    system.deadLetterOffice().count() - deadBefore, Duration.ofNanos(System.nanoTime() - start));
            log(s, worked);
            removeHook();
            done.complete(s);
        }
    }

    private void runPhase(String phase, List<Task> list, List<String> failed, List<String> timedOut) {
        if (list.isEmpty()) {
            return;
        }
        List<CompletableFuture<?>> stages = new ArrayList<>(list.size());
        List<Task> running = new ArrayList<>(list.size());
        for (Task t : list) {
            try {
                CompletionStage<?> stage = t.body().get();
                if (stage == null) {
                    failed.add(phase + "/" + t.name());
                    LOG.warn("shutdown task {}/{} of system {} returned null instead of a CompletionStage; counted as failed",
                            phase, t.name(), system.name());
                    continue;
                }
                stages.add(stage.toCompletableFuture());
                running.add(t);
            } catch (RuntimeException | Error e) {
                failed.add(phase + "/" + t.name());
                LOG.warn("shutdown task {}/{} of system {} threw; the phase goes on", phase, t.name(), system.name(), e);
            }
        }
        Duration timeout = settings.timeoutOf(phase);
        CompletableFuture<?> all = CompletableFuture.allOf(stages.stream()
                .map(f -> f.handle((v, e) -> null)).toArray(CompletableFuture[]::new));
        try {
            all.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // which tasks: below
        }
        for (int i = 0; i < stages.size(); i++) {
            CompletableFuture<?> f = stages.get(i);
            String id = phase + "/" + running.get(i).name();
            if (!f.isDone()) {
                timedOut.add(id);
                LOG.warn("shutdown task {} of system {} did not complete within the phase timeout of {} ms; the phase goes on",
                        id, system.name(), timeout.toMillis());
            } else if (f.isCompletedExceptionally()) {
                failed.add(id);
                Throwable cause = f.handle((v, e) -> e).join();
                LOG.warn("shutdown task {} of system {} failed; the phase goes on", id, system.name(), cause);
            }
        }
    }

    /** @return true if every mailbox was empty before the deadline */
    private boolean drain() {
        long deadline = System.nanoTime() + settings.drainDeadline().toNanos();
        long pause = 100_000;
        for (;;) {
            long[] work = pendingWork();
            if (work[0] == 0 && work[1] == 0) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                if (work[0] == 0) {
                    LOG.warn("draining system {}: every mailbox is empty, but {} actors were still in a turn at the deadline of {} ms;"
                            + " the messages of their current batches are not in messagesDrained",
                            system.name(), work[1], settings.drainDeadline().toMillis());
                    return true;
                }
                LOG.warn("draining system {} did not finish within {} ms: {} messages still queued go to dead letters (SYSTEM_CLOSED)",
                        system.name(), settings.drainDeadline().toMillis(), work[0]);
                return false;
            }
            LockSupport.parkNanos(Math.min(pause, Math.max(1, deadline - System.nanoTime())));
            pause = Math.min(pause * 2, 10_000_000);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * What the drain waits for, over the live actors: [0] messages queued or kept, [1] actors in a
     * turn or scheduled for one (active), apart from thread-based actors running on their own
     * thread, whose bodies may block for any time (they add their receives to the counts before
     * they park in receive, where they are not active).
     */
    long[] pendingWork() {
        long[] work = {0, 0};
        system.table.forEach((Cell<?> c) -> {
            work[0] += c.queuedMessages();
            if (c.isActive() && c.ownThread() == null) {
                work[1]++;
            }
        });
        return work;
    }

    private void log(Summary s, boolean worked) {
        String line = "coordinated shutdown of system {}: phases {} ran; {} tasks ({} failed {}, {} timed out {}); pending mail {}: {}"
                + " messages drained{}; {} dead letters; took {} ms";
        Object[] args = {system.name(), s.phasesRun().size(), s.tasksRun(), s.tasksFailed().size(), s.tasksFailed(),
                s.tasksTimedOut().size(), s.tasksTimedOut(), settings.pendingMail(), s.messagesDrained(),
                s.drainCompleted() ? "" : " (deadline passed)", s.deadLettered(), s.took().toMillis()};
        if (worked) {
            LOG.info(line, args);
        } else {
            LOG.debug(line, args);
        }
    }

    private void removeHook() {
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException jvmExiting) {
                // the JVM is shutting down: the hook runs (and finds the shutdown done) or has run
            }
        }
    }
}
