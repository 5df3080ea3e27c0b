package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import io.weft.actors.runtime.internal.mailbox.Stamped;
import io.weft.actors.runtime.internal.mailbox.MailboxPolicy;

/**
 * One actor: its frame (Prokopec 2016, §3.1), its context, and its main channel's queue.
 *
 * <p>Not a {@code ForkJoinTask} itself: the ForkJoin scheduler wraps each push to its pool in a
 * fresh {@link FrameTask} (see there why a task object must never be pushed twice).
 *
 * @param <M> the main channel's message type
 */
public final class Cell<M> extends CellThreadMode<M> {

    /* design
     * The final class of the chain (CellCore's design block): the scheduler SPI's Frame and
     * EventQueue surface and the ActorContext that handlers and bodies call.
     *
     *   I5 (owner-only context): the ActorContext methods that read or write owner-only fields
     *      (the list in ActorContext's Javadoc) run checkOwner first: the calling thread must be
     *      running this actor's turn (CurrentActor.current() == this) or be its own or adopted thread
     *      (OwnThreadPart.thread); any other thread gets IllegalStateException, so a kept context cannot
     *      write the continuation, hooks or sender behind the owner's back. stop() is any-thread:
     *      from outside it activates the frame (stopFromOutside), or an idle actor never stops.
     */

    public Cell(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    @Override
    public void run() {
        execute();
    }

    @Override
    public Runnable task() {
        return this;
    }

    @Override
    public SchedulerState schedulerState() {
        return schedulerState;
    }

    @Override
    public void schedulerState(SchedulerState state) {
        this.schedulerState = Objects.requireNonNull(state, "state");
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public boolean isActive() {
        return lvActive();
    }

    /** @return the class of the actor's body while it has not started (for per-class profiles), else null */
    @Override
    public Class<?> profileClass() {
        Behavior<M> b = behavior;
        return b == null ? null : b.getClass();
    }

    @Override
    public void timestampEvents(LongSupplier clock) {
        this.stampClock = clock;
    }

    @Override
    public long oldestStamp() {
        long oldest = Stamped.headOf(mailbox);
        Extras x = extras;
        if (x != null && x.channels != null) {
            for (ChannelQueue<?> c : x.channels) {
                oldest = Math.min(oldest, c.headStamp());
            }
        }
        return oldest;
    }

    @Override
    public Channel<?> channel() {
        return ref;
    }

    @Override
    public boolean isEmpty() {
        return mailbox.isEmpty();
    }

    @Override
    public int size() {
        return mailbox.size();
    }

    @Override
    public long headStamp() {
        return Stamped.headOf(mailbox);
    }

    /**
     * Refuses an owner-only context method called from a thread that is not running this actor
     * (I1: owner-only state is plain fields, published between owners by the activation word, so
     * a foreign write would race with the actor's own turn). The owner is the thread running the
     * actor's turn or body (a pool worker, the actor's own thread, a test scheduler's thread) or
     * the adopted thread of {@code Actors.self}. Out of line: the owner's call pays one
     * {@code current()} read.
     */
    void checkOwner(String what) {
        if (CurrentActor.current() != this && !ownsCurrentThread()) {
            throw notOwner(what);
        }
    }

    boolean ownsCurrentThread() {
        OwnThreadPart x = ownPartIfAny();
        return x != null && x.thread == Thread.currentThread();
    }

    IllegalStateException notOwner(String what) {
        return new IllegalStateException(what + " called on " + ref + " from thread \"" + Thread.currentThread().getName()
                + "\", which is not running this actor. Only the actor itself (its body, its handlers or its own thread)"
                + " may call this method of its context; from elsewhere, send the actor a message");
    }

    @Override
    public ActorRef<M> self() {
        return ref;
    }

    @Override
    public ActorSystem system() {
        return system;
    }

    @Override
    public ActorRef<?> sender() {
        checkOwner("sender()");
        return sender;
    }

    @Override
    public void reply(Object message) {
        checkOwner("reply");
        Objects.requireNonNull(message, "message");
        ActorRef<?> to = sender;
        if (to == null) {
            replyWithoutSender(message);
            return;
        }
        @SuppressWarnings("unchecked")
        ActorRef<Object> target = (ActorRef<Object>) to;
        target.tell(message);
    }

    /**
     * A reply to a message that carried no sender is a dead letter (NO_SENDER) with a warning, as in
     * Pekko; the actor goes on.
     */
    void replyWithoutSender(Object message) {
        system.deadLetterOffice().publish(message, ref, ref, io.weft.actors.DeadLetter.Reason.NO_SENDER);
        system.warnRateLimited(() -> "reply from " + ref + " of " + message.getClass().getName()
                + " went to dead letters (NO_SENDER): the message being handled has no sender;"
                + " the sender must use tell(message, replyTo) or ask, or the request must carry an ActorRef to reply to");
    }

    @Override
    public void unhandled(io.weft.actors.Unhandled policy) {
        checkOwner("unhandled");
        applyUnhandled(Objects.requireNonNull(policy, "policy"));
    }

    /**
     * Sets the policy given in {@code Props} before the actor starts (the spawning thread, before
     * the cell is published to a scheduler).
     *
     * @param policy the policy, not null
     */
    public void initUnhandled(io.weft.actors.Unhandled policy) {
        extras().unhandled = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public <T> void forward(Channel<T> target, T message) {
        checkOwner("forward");
        Objects.requireNonNull(target, "target");
        target.tell(message, sender);
    }

    @Override
    public void react(Receive<? super M, ?> handler) {
        await(handler, false, "react");
    }

    @Override
    public void become(Receive<? super M, ?> handler) {
        await(handler, true, "become");
    }

    /**
     * Installs the continuation of react (one message) or become (every message). In thread mode,
     * on the actor's own thread, it detaches: the thread unwinds and the frame goes event-based.
     */
    @SuppressWarnings("unchecked")
    void await(Receive<? super M, ?> handler, boolean keep, String what) {
        Objects.requireNonNull(handler, "handler");
        checkOwner(what);
        if (continuation != null && !persistent) {
            throw new IllegalStateException(what + " called on " + ref + " while an earlier react is still waiting;"
                    + " " + what + " must be the last step of a body or handler");
        }
        continuation = (Receive<Object, ?>) handler;
        if (persistent != keep) {
            persistent = keep; // a loop of reacts or one become never changes it: no store per message
        }
        if (extras != null) {
            stashMayMatch(); // only kept messages need a look: no call for an actor without extras
        }
        if (threadMode) {
            OwnThreadPart p = ownPartIfAny();
            if (p != null && p.thread == Thread.currentThread()) {
                extras().stashDirty = true;
                throw DetachSignal.INSTANCE;
            }
        }
    }

    @Override
    public void loop(Runnable body) {
        checkOwner("loop");
        Objects.requireNonNull(body, "body");
        hooks = new Hook(body, true, null, hooks);
    }

    @Override
    public void loopWhile(BooleanSupplier condition, Runnable body) {
        checkOwner("loopWhile");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(body, "body");
        hooks = new Hook(body, true, condition, hooks);
    }

    @Override
    public void andThen(Runnable first, Runnable next) {
        checkOwner("andThen");
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(next, "next");
        hooks = new Hook(first, false, null, new Hook(next, false, null, hooks));
    }

    @Override
    public void switchToThread(Runnable body) {
        checkOwner("switchToThread");
        Objects.requireNonNull(body, "body");
        if (threadMode) {
            throw new IllegalStateException(ref + " is already thread-based");
        }
        Extras x = extras();
        x.threadBody = body;
        x.switchTo = system.threadScheduler();
        threadMode = true;
        continuation = null;
        persistent = false;
    }

    /** Moves this actor to another scheduler after the current handler (weak mobility); owner only. */
    @Override
    public void moveTo(Scheduler target) {
        checkOwner("moveTo");
        checkMoveTarget(target);
        if (threadMode) {
            throw new IllegalStateException(ref + " is thread-based; only event-based actors can move between schedulers");
        }
        svMoveRequest(target); // taken in afterTurn, like a move requested from outside
    }

    @Override
    public <T> Channel<T> open(Class<T> type) {
        checkOwner("open");
        Objects.requireNonNull(type, "type");
        Extras x = extras();
        if (x.pending == null) {
            x.pending = scheduler.newPendingQueue();
            x.channels = new ArrayList<>(2);
        }
        ChannelQueue<T> c = new ChannelQueue<>(this, type, MailboxPolicy.newQueueLike(mailbox), x.pending, x.channels.size() + 1);
        x.channels.add(c);
        return c;
    }

    @Override
    public void stop() {
        if (CurrentActor.current() == this || ownsCurrentThread()) {
            requestStop(); // the owner's turn ends the actor when the handler returns
        } else {
            system.stop(ref); // an idle actor is activated to finish stopping, a blocked thread interrupted
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public io.weft.actors.Timers<M> timers() {
        checkOwner("timers");
        Extras x = extras();
        if (x.timers == null) {
            x.timers = new CellTimers<>(cell());
        }
        return (io.weft.actors.Timers<M>) x.timers;
    }

    @Override
    public void onStop(Runnable hook) {
        checkOwner("onStop");
        Objects.requireNonNull(hook, "hook");
        Extras x = extras();
        if (x.stopHooks == null) {
            x.stopHooks = new ArrayDeque<>(2);
        }
        x.stopHooks.addLast(hook);
    }

    @Override
    public void watch(ActorRef<?> other) {
        checkOwner("watch");
        system.watch(this, other);
    }

    @Override
    public void unwatch(ActorRef<?> other) {
        checkOwner("unwatch");
        system.unwatch(this, other);
    }

    @Override
    public void link(ActorRef<?> other) {
        checkOwner("link");
        system.link(this, other);
    }

    @Override
    public void unlink(ActorRef<?> other) {
        checkOwner("unlink");
        system.unlink(this, other);
    }

    @Override
    public void trapExit(boolean trap) {
        checkOwner("trapExit");
        system.trapExit(this, trap);
    }

    @Override
    public <C> ActorRef<C> spawnChild(io.weft.actors.Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        checkOwner("spawnChild");
        return system.spawnSupervised(this, props, factory, false);
    }

    @Override
    public <C> ActorRef<C> spawnChildThread(io.weft.actors.Props props, java.util.function.Supplier<? extends Behavior<C>> factory) {
        checkOwner("spawnChildThread");
        return system.spawnSupervised(this, props, factory, true);
    }
}
