package io.weft.actors.testkit;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * An actor that a test controls: messages sent to its {@link #ref()} are queued for the test to
 * check with {@code expectMessage}, {@code receiveMessage}, {@code expectNoMessage} and
 * {@code fishForMessage}. Its ref is an ordinary actor ref, so it can be given as a
 * {@code replyTo} or inside a message; {@link #lastSender()} and {@link #reply(Object)} answer like
 * the actor under test expects.
 *
 * <p>On a {@link DeterministicScheduler} the probe's actor runs on that scheduler too, and every
 * expectation first runs the scheduler until idle, so waits never block: a timeout there means
 * "nothing arrived once the actors went quiet".
 *
 * @param <M> the message type
 */
public final class TestProbe<M> {

    /** The default wait of the methods without a timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private record Received(Object message, ActorRef<?> sender) {
    }

    private final LinkedBlockingQueue<Received> queue = new LinkedBlockingQueue<>();
    private final ActorRef<M> ref;
    private final DeterministicScheduler deterministic;
    private volatile ActorRef<?> lastSender;

    private TestProbe(ActorSystem system, Props props, DeterministicScheduler deterministic) {
        this.deterministic = deterministic;
        this.ref = system.spawn(props, self -> self.loop(() -> self.react(Receive.<M>handler()
                .matchAny(m -> queue.add(new Received(m, self.sender())))
                .build())));
    }

    /**
     * @param system the system to spawn the probe's actor in
     * @param <M> the message type
     * @return a probe with a generated name
     */
    public static <M> TestProbe<M> create(ActorSystem system) {
        return new TestProbe<>(Objects.requireNonNull(system, "system"), Props.defaults(), null);
    }

    /**
     * @param system the system to spawn the probe's actor in
     * @param name the actor's name
     * @param <M> the message type
     * @return a named probe
     */
    public static <M> TestProbe<M> create(ActorSystem system, String name) {
        return new TestProbe<>(Objects.requireNonNull(system, "system"), Props.named(name), null);
    }

    /**
     * A probe whose actor runs on a deterministic scheduler.
     *
     * @param system the system
     * @param scheduler the scheduler that runs the probe's actor and is stepped by expectations
     * @param name the actor's name
     * @param <M> the message type
     * @return the probe
     */
    public static <M> TestProbe<M> create(ActorSystem system, DeterministicScheduler scheduler, String name) {
        Objects.requireNonNull(scheduler, "scheduler");
        return new TestProbe<>(Objects.requireNonNull(system, "system"), scheduler.props(name), scheduler);
    }

    /** @return the probe's ref, to send to or to pass as a reply destination */
    public ActorRef<M> ref() {
        return ref;
    }

    /** @return the sender of the last message taken from the probe, or null if it had none */
    public ActorRef<?> lastSender() {
        return lastSender;
    }

    /**
     * Replies to the sender of the last message taken.
     *
     * @param message the reply
     * @throws IllegalStateException if that message had no sender
     */
    @SuppressWarnings("unchecked")
    public void reply(Object message) {
        ActorRef<?> to = lastSender;
        if (to == null) {
            throw new IllegalStateException("reply from probe " + ref + ": the last message taken has no sender");
        }
        ((ActorRef<Object>) to).tell(message);
    }

    private Received poll(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (deterministic != null) {
            deterministic.runUntilIdle();
            return queue.poll();
        }
        try {
            return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a message on probe " + ref, e);
        }
    }

    @SuppressWarnings("unchecked")
    private M take(Received r) {
        lastSender = r.sender();
        return (M) r.message();
    }

    /**
     * Takes the next message, waiting up to {@code timeout}.
     *
     * @param timeout how long to wait
     * @return the message
     * @throws AssertionError if none arrives in time
     */
    public M receiveMessage(Duration timeout) {
        Received r = poll(timeout);
        if (r == null) {
            throw new AssertionError("probe " + ref + ": no message within " + timeout);
        }
        return take(r);
    }

    /**
     * Takes the next message, waiting up to {@link #DEFAULT_TIMEOUT}.
     *
     * @return the message
     */
    public M receiveMessage() {
        return receiveMessage(DEFAULT_TIMEOUT);
    }

    /**
     * Takes the next message and checks that it equals {@code expected}.
     *
     * @param expected the expected message
     * @return the message
     * @throws AssertionError if none arrives within {@link #DEFAULT_TIMEOUT} or it differs
     */
    public M expectMessage(M expected) {
        return expectMessage(DEFAULT_TIMEOUT, expected);
    }

    /**
     * Takes the next message and checks that it equals {@code expected}.
     *
     * @param timeout how long to wait
     * @param expected the expected message
     * @return the message
     * @throws AssertionError if none arrives in time or it differs
     */
    public M expectMessage(Duration timeout, M expected) {
        M m = receiveMessage(timeout);
        if (!Objects.equals(expected, m)) {
            throw new AssertionError("probe " + ref + ": expected " + expected + " but received " + m);
        }
        return m;
    }

    /**
     * Takes the next message and checks its class.
     *
     * @param type the expected class
     * @param <T> the class
     * @return the message
     * @throws AssertionError if none arrives within {@link #DEFAULT_TIMEOUT} or it has another class
     */
    public <T extends M> T expectMessageClass(Class<T> type) {
        M m = receiveMessage(DEFAULT_TIMEOUT);
        if (!type.isInstance(m)) {
            throw new AssertionError("probe " + ref + ": expected a " + type.getName() + " but received " + m);
        }
        return type.cast(m);
    }

    /**
     * Checks that no message arrives within {@code within}. This waits the whole period (on a
     * deterministic scheduler: until the actors are idle), so keep it short.
     *
     * @param within how long to watch
     * @throws AssertionError if a message arrives
     */
    public void expectNoMessage(Duration within) {
        Received r = poll(within);
        if (r != null) {
            throw new AssertionError("probe " + ref + ": expected no message within " + within + " but received " + r.message());
        }
    }

    /**
     * Takes messages until one satisfies {@code accept}, dropping the others.
     *
     * @param timeout how long to wait in all
     * @param accept the test of the wanted message
     * @return the first message it accepts
     * @throws AssertionError if none does in time
     */
    public M fishForMessage(Duration timeout, Predicate<? super M> accept) {
        Objects.requireNonNull(accept, "accept");
        long deadline = System.nanoTime() + timeout.toNanos();
        int skipped = 0;
        for (;;) {
            long left = Math.max(0, deadline - System.nanoTime());
            Received r = poll(Duration.ofNanos(left));
            if (r == null) {
                throw new AssertionError("probe " + ref + ": no accepted message within " + timeout + " (" + skipped + " skipped)");
            }
            M m = take(r);
            if (accept.test(m)) {
                return m;
            }
            skipped++;
        }
    }
}
