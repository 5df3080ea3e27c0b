package io.weft.actors.runtime.internal.telemetry;

import io.weft.actors.ActorRef;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.FlightRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.helpers.NOPMDCAdapter;

/**
 * The runtime's observability hooks: SLF4J MDC while an actor runs, JFR events, and warnings
 * logged once with context. Every hook is a static method that costs a field read when its output
 * is off.
 */
public final class Telemetry {

    /* design
     * MDC: `enter` puts the actor's name and id (keys MDC_ACTOR, MDC_ACTOR_ID) when a thread starts
     * running an actor's turn, `leave` puts back the values of the actor it interrupted (a
     * piggyback spawn runs a turn inside another turn) or removes them. Skipped entirely when the
     * SLF4J binding has no MDC (NOP adapter) or -Dweft.mdc=false. The cost is two map puts per turn
     * (not per message: a turn handles up to batchSize messages).
     *
     * JFR: events are committed only when enabled in a running recording. Every hook first asks
     * FlightRecorder.isInitialized() (a static field): until JFR starts in the JVM, JfrEvents is
     * not loaded at all (its EventType look-ups start JFR, about 200 ms on the first sender).
     * MessageHandled is off by default; the per-message check is then EventType.isEnabled(), one
     * field read. Queue time is recorded only while MessageHandled is enabled (senders then stamp
     * messages with System.nanoTime()).
     *
     * Warnings logged once: a blocked worker is logged at WARN once per actor id (the set is bounded
     * to WARNED_LIMIT ids, after which further actors are only counted in JFR).
     */

    /** MDC key of the running actor's name. */
    public static final String MDC_ACTOR = "weft.actor";
    /** MDC key of the running actor's id. */
    public static final String MDC_ACTOR_ID = "weft.actorId";

    private static final Logger LOG = LoggerFactory.getLogger(Telemetry.class);
    private static final boolean MDC_ON = !Boolean.getBoolean("weft.mdc.disabled") && !(MDC.getMDCAdapter() instanceof NOPMDCAdapter);
    private static final int WARNED_LIMIT = 10_000;
    private static final Set<Long> WARNED_BLOCKED = ConcurrentHashMap.newKeySet();

    private Telemetry() {
    }

    /** @return whether actor names are put in the MDC */
    public static boolean mdcEnabled() {
        return MDC_ON;
    }

    // ------------------------------------------------------------------ MDC

    public static void enterMdc(ActorRef<?> actor) {
        if (MDC_ON) {
            MDC.put(MDC_ACTOR, actor.name());
            MDC.put(MDC_ACTOR_ID, Long.toString(actor.id()));
        }
    }

    public static void leaveMdc(ActorRef<?> previous) {
        if (MDC_ON) {
            if (previous == null) {
                MDC.remove(MDC_ACTOR);
                MDC.remove(MDC_ACTOR_ID);
            } else {
                enterMdc(previous);
            }
        }
    }

    // ------------------------------------------------------------------ messages

    /**
     * Whether JFR has started in this JVM (a recording was started, from the command line, jcmd or
     * the API). Until then no event can be enabled, so every hook returns before it touches
     * {@link JfrEvents}: loading that class registers its event types, which starts JFR's own
     * machinery and took about 200 ms, on the thread that sent the first message.
     */
    private static boolean jfrRunning() {
        return FlightRecorder.isInitialized();
    }

    /**
     * Whether senders should stamp messages with their enqueue time: only while a recording has
     * MessageHandled enabled, so the default send path allocates nothing more.
     */
    public static boolean queueTimeWanted() {
        return jfrRunning() && JfrEvents.HANDLED_TYPE.isEnabled();
    }

    /** @return an event begun now if MessageHandled is enabled, else null (the common case) */
    public static JfrEvents.MessageHandled beginHandled() {
        if (!jfrRunning() || !JfrEvents.HANDLED_TYPE.isEnabled()) {
            return null;
        }
        JfrEvents.MessageHandled e = new JfrEvents.MessageHandled();
        e.begin();
        return e;
    }

    public static void endHandled(JfrEvents.MessageHandled e, ActorRef<?> actor, Object channel, Object message, long queuedNanos) {
        e.end();
        if (e.shouldCommit()) {
            e.queueTime = queuedNanos;
            e.actor = actor.name();
            e.actorId = actor.id();
            e.channel = channel == null ? "" : channel.toString();
            e.messageClass = message.getClass().getName();
            e.commit();
        }
    }

    public static void mailboxOverflow(ActorRef<?> actor, Mailbox mailbox, Object message) {
        if (!jfrRunning() || !JfrEvents.OVERFLOW_TYPE.isEnabled()) {
            return;
        }
        JfrEvents.MailboxOverflow e = new JfrEvents.MailboxOverflow();
        if (e.shouldCommit()) {
            e.actor = actor.name();
            e.actorId = actor.id();
            e.capacity = mailbox.capacity();
            e.policy = mailbox.overflow().name();
            e.messageClass = message.getClass().getName();
            e.commit();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /** The lifecycle stream of a system, which also emits the lifecycle JFR events. */
    public static Listeners<LifecycleEvent> lifecycleListeners() {
        return new Listeners<>() {
            @Override
            public boolean wanted() {
                return super.wanted() || jfrRunning(); // a recording may want the JFR event
            }

            @Override
            public void publish(LifecycleEvent event) {
                lifecycleEvent(event);
                super.publish(event);
            }
        };
    }

    private static void lifecycleEvent(LifecycleEvent event) {
        ActorRef<?> ref = event.actor();
        switch (event.kind()) {
            case STARTED -> {
                if (!jfrRunning() || !JfrEvents.STARTED_TYPE.isEnabled()) {
                    return;
                }
                JfrEvents.ActorStarted e = new JfrEvents.ActorStarted();
                if (e.shouldCommit()) {
                    e.actor = ref.name();
                    e.actorId = ref.id();
                    e.commit();
                }
            }
            case STOPPED -> {
                if (!jfrRunning() || !JfrEvents.STOPPED_TYPE.isEnabled()) {
                    return;
                }
                JfrEvents.ActorStopped e = new JfrEvents.ActorStopped();
                if (e.shouldCommit()) {
                    e.actor = ref.name();
                    e.actorId = ref.id();
                    e.commit();
                }
            }
            case FAILED -> {
                if (!jfrRunning() || !JfrEvents.FAILED_TYPE.isEnabled()) {
                    return;
                }
                JfrEvents.ActorFailed e = new JfrEvents.ActorFailed();
                if (e.shouldCommit()) {
                    e.actor = ref.name();
                    e.actorId = ref.id();
                    Throwable cause = event.cause();
                    e.exceptionClass = cause == null ? "" : cause.getClass().getName();
                    e.message = cause == null ? "" : String.valueOf(cause.getMessage());
                    e.commit();
                }
            }
            default -> {
            }
        }
    }

    // ------------------------------------------------------------------ blocking

    /**
     * The hook for blocking detection: a pool worker has been running one handler of
     * {@code actor} for {@code blockedFor}. Emits a {@code io.weft.BlockedWorker} JFR event every
     * time and logs a warning, with the worker's stack, once per actor.
     *
     * @param actor the actor whose handler runs
     * @param worker the worker thread
     * @param blockedFor how long the handler has been running
     * @return true if this call logged the warning (the first report for this actor)
     */
    public static boolean blockedWorker(ActorRef<?> actor, Thread worker, Duration blockedFor) {
        JfrEvents.BlockedWorker e = jfrRunning() && JfrEvents.BLOCKED_TYPE.isEnabled() ? new JfrEvents.BlockedWorker() : null;
        if (e != null && e.shouldCommit()) {
            e.actor = actor.name();
            e.actorId = actor.id();
            e.thread = worker.getName();
            e.blockedNanos = blockedFor.toNanos();
            e.commit();
        }
        if (WARNED_BLOCKED.size() < WARNED_LIMIT && WARNED_BLOCKED.add(actor.id())) {
            if (LOG.isWarnEnabled()) {
                Throwable where = new Throwable("stack of " + worker.getName() + " while running " + actor);
                where.setStackTrace(worker.getStackTrace());
                LOG.warn("actor {} has blocked pool worker {} for {} ms inside one handler; blocking calls belong in a"
                        + " thread-based actor (spawnThread, or switchToThread). Logged once per actor.",
                        actor, worker.getName(), blockedFor.toMillis(), where);
            }
            return true;
        }
        return false;
    }
}
