package io.weft.actors;

import java.time.Duration;

/**
 * The timers of one actor (Pekko's {@code TimerScheduler}, Erlang's {@code erlang:send_after}):
 * messages the actor sends to itself later, once or periodically, each under a key.
 *
 * <pre>{@code
 * self.timers().startSingle("tick", new Tick(), Duration.ofSeconds(1));
 * self.timers().startFixedRate("poll", new Poll(), Duration.ofMillis(100));
 * self.timers().cancel("poll");
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Keys: at most one timer per key ({@link Object#equals} and {@link Object#hashCode}).
 *       Starting a timer under a key that has one replaces it, and a message of the replaced
 *       timer is never handled, even if it was already in the mailbox: each timer message is
 *       checked when the actor takes it from its mailbox, on its own thread, and one from a
 *       replaced or cancelled timer is dropped there.
 *   <li>A single timer is {@linkplain #isActive(Object) active} from its start until its message
 *       is taken from the mailbox (or it is cancelled or replaced); a periodic timer until it is
 *       cancelled or replaced.
 *   <li>All of an actor's timers are cancelled when it stops (however it stops) and when a
 *       supervisor restarts it; the new incarnation starts its own. A timer started after the
 *       actor has stopped (in an {@link ActorContext#onStop(Runnable) onStop} hook) is not
 *       started.
 *   <li>The message goes to the actor's main channel, without a sender. A message no case of the
 *       current handler matches stays in the mailbox as any other would (selective receive); it
 *       was checked as current when it was taken.
 *   <li>Owner-only: like the other owner-only methods of {@link ActorContext}, every method throws
 *       {@link IllegalStateException} when called from a thread that is not running the actor.
 *   <li>Resolution: the system's timer facility advances in ticks (1 ms by default); a timer fires
 *       at the first tick at or after its due time, never before it. A periodic interval shorter
 *       than a tick fires at most once per tick.
 *   <li>Time is the system's {@link io.weft.actors.spi.Ticker} ({@link ActorSystem.Builder#ticker}):
 *       with a manual one (the test kit's {@code ManualClock}) timers fire only when the test
 *       advances it, on the advancing thread.
 * </ul>
 *
 * @param <M> the type of the actor's messages
 */
public interface Timers<M> {

    /**
     * Sends {@code message} to this actor once, after {@code delay}, replacing any timer under
     * {@code key}.
     *
     * @param key the timer's key, not null
     * @param message the message, not null
     * @param delay positive
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code delay} is zero or negative
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void startSingle(Object key, M message, Duration delay);

    /**
     * Sends {@code message} to this actor every {@code delay}, the first after {@code delay}; each
     * next one is due {@code delay} after the previous one was sent (Pekko's fixed delay: the
     * period stretches when the system is late). Replaces any timer under {@code key}.
     *
     * @param key the timer's key, not null
     * @param message the message, not null
     * @param delay positive
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code delay} is zero or negative
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void startFixedDelay(Object key, M message, Duration delay);

    /**
     * Like {@link #startFixedDelay(Object, Object, Duration)}, the first message after
     * {@code initialDelay}.
     *
     * @param key the timer's key, not null
     * @param message the message, not null
     * @param initialDelay positive
     * @param delay positive
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a delay is zero or negative
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void startFixedDelay(Object key, M message, Duration initialDelay, Duration delay);

    /**
     * Sends {@code message} to this actor every {@code interval}, the first after
     * {@code interval}; message n is due at start + n &times; interval, so a late one is followed
     * sooner (Pekko's fixed rate). Replaces any timer under {@code key}.
     *
     * @param key the timer's key, not null
     * @param message the message, not null
     * @param interval positive
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code interval} is zero or negative
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void startFixedRate(Object key, M message, Duration interval);

    /**
     * Like {@link #startFixedRate(Object, Object, Duration)}, the first message after
     * {@code initialDelay}.
     *
     * @param key the timer's key, not null
     * @param message the message, not null
     * @param initialDelay positive
     * @param interval positive
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if a delay is zero or negative
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void startFixedRate(Object key, M message, Duration initialDelay, Duration interval);

    /**
     * Cancels the timer under {@code key}, if any; a message of it already in the mailbox is
     * dropped when taken.
     *
     * @param key the key, not null
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void cancel(Object key);

    /**
     * @param key the key, not null
     * @return whether a timer under {@code key} is active (see the contract above)
     * @throws IllegalStateException if called from a thread not running this actor
     */
    boolean isActive(Object key);

    /**
     * Cancels every timer of this actor.
     *
     * @throws IllegalStateException if called from a thread not running this actor
     */
    void cancelAll();
}
