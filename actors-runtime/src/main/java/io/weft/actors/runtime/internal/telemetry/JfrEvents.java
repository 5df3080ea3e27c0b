package io.weft.actors.runtime.internal.telemetry;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JFR events of the runtime. Each is named {@code io.weft.*} and in the category
 * {@code Weft}; enable them in a recording ({@code jcmd <pid> JFR.start settings=...} or
 * {@link jdk.jfr.Recording#enable(String)}).
 *
 * <p>{@link MessageHandled} is per message, and {@link ActorStarted} / {@link ActorStopped} are per
 * actor (a million for a million spawns): these three are off by default and recorded only when a
 * recording enables them. The rare ones (failed, overflow, blocked worker) are on by default. The
 * hot path asks {@link #HANDLED_TYPE}{@code .isEnabled()} (one field read) before allocating or
 * timing anything.
 */
public final class JfrEvents {

    private JfrEvents() {
    }

    /*
     * Every hook asks its EventType.isEnabled() (a field read) before it creates an event: a
     * disabled event then costs nothing, and a virtual thread never enters JFR's commit path (which
     * can take a contended monitor and pin the carrier) for an event no recording wants.
     */

    /** The event type of {@link MessageHandled}, for the enabled check on the hot path. */
    static final EventType HANDLED_TYPE = EventType.getEventType(MessageHandled.class);
    static final EventType FAILED_TYPE = EventType.getEventType(ActorFailed.class);
    static final EventType STARTED_TYPE = EventType.getEventType(ActorStarted.class);
    static final EventType STOPPED_TYPE = EventType.getEventType(ActorStopped.class);
    static final EventType OVERFLOW_TYPE = EventType.getEventType(MailboxOverflow.class);
    static final EventType BLOCKED_TYPE = EventType.getEventType(BlockedWorker.class);

    /** One message handled by an event-based actor; the event's duration is the handler's run time. */
    @Name("io.weft.MessageHandled")
    @Label("Message Handled")
    @Category({"Weft", "Actors"})
    @Description("A react handler ran for one message")
    @Enabled(false)
    @StackTrace(false)
    public static final class MessageHandled extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
        @Label("Channel")
        @Description("The channel the message came on; empty for the actor's main channel")
        String channel;
        @Label("Message Class")
        String messageClass;
        @Label("Queue Time")
        @Description("From enqueue to the start of handling; -1 if the message was sent before the event was enabled")
        @Timespan(Timespan.NANOSECONDS)
        long queueTime;
    }

    /** An actor's body or handler threw. */
    @Name("io.weft.ActorFailed")
    @Label("Actor Failed")
    @Category({"Weft", "Actors"})
    @StackTrace(false)
    static final class ActorFailed extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
        @Label("Exception Class")
        String exceptionClass;
        @Label("Message")
        String message;
    }

    /** An actor started running its body. */
    @Name("io.weft.ActorStarted")
    @Label("Actor Started")
    @Category({"Weft", "Actors"})
    @StackTrace(false)
    @Enabled(false)
    static final class ActorStarted extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
    }

    /** An actor stopped for good. */
    @Name("io.weft.ActorStopped")
    @Label("Actor Stopped")
    @Category({"Weft", "Actors"})
    @StackTrace(false)
    @Enabled(false)
    static final class ActorStopped extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
    }

    /** A bounded mailbox was full when a message arrived. */
    @Name("io.weft.MailboxOverflow")
    @Label("Mailbox Overflow")
    @Category({"Weft", "Actors"})
    @StackTrace(true)
    static final class MailboxOverflow extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
        @Label("Capacity")
        int capacity;
        @Label("Overflow Policy")
        String policy;
        @Label("Message Class")
        String messageClass;
    }

    /** A pool worker stayed inside one handler for too long (blocked or busy). */
    @Name("io.weft.BlockedWorker")
    @Label("Blocked Worker Detected")
    @Category({"Weft", "Actors"})
    @StackTrace(false)
    static final class BlockedWorker extends Event {
        @Label("Actor")
        String actor;
        @Label("Actor Id")
        long actorId;
        @Label("Worker Thread")
        String thread;
        @Label("Blocked For")
        @Timespan(Timespan.NANOSECONDS)
        long blockedNanos;
    }
}
