package io.weft.actors;

/**
 * The writing end of one event stream of one actor (Prokopec 2016, §2): anyone holding a channel may send
 * to it; only the owning actor reads the stream.
 *
 * <p>Every actor has a main channel, which is its {@link ActorRef}; an actor can
 * {@linkplain ActorContext#open(Class) open} more typed channels, each with its own queue. A
 * {@code Receive} case names the channel it listens on with
 * {@link Receive.Builder#on(Channel, Class, java.util.function.Function) on(channel, ...)}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Thread safety.</b> {@code tell} may be called from any thread, actor or not, at any time.
 *   <li><b>Ordering.</b> Messages sent by one thread to one channel are handled in the order sent
 *       (per-sender FIFO); there is no order between different senders or different channels.
 *   <li><b>Happens-before.</b> Everything a sender did before {@code tell} happens-before the handling
 *       of that message.
 *   <li><b>Never lost, never thrown.</b> {@code tell} never blocks (except a full bounded mailbox with
 *       the {@code BLOCK} policy, for thread-based senders) and never throws for a stopped actor or a
 *       closed system: such messages go to {@link ActorSystem#deadLetters() dead letters}. It throws
 *       {@link NullPointerException} for a null message.
 * </ul>
 *
 * @param <M> the type of messages this channel accepts
 */
public interface Channel<M> {

    /**
     * Sends a message with no reply destination.
     *
     * @param message the message, not null
     * @throws NullPointerException if {@code message} is null
     */
    void tell(M message);

    /**
     * Sends a message and names who gets the reply: inside the receiving handler,
     * {@link ActorContext#sender()} is {@code replyTo}.
     *
     * @param message the message, not null
     * @param replyTo the reply destination, or null for none
     * @throws NullPointerException if {@code message} is null
     */
    void tell(M message, ActorRef<?> replyTo);

    /**
     * The actor that owns this channel.
     *
     * @return the owner's main channel
     */
    ActorRef<?> owner();
}
