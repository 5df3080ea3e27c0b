package io.weft.actors;

/**
 * How a system passes messages between actors (safe messaging, Karmani et al. 2009, §3.1), set with
 * {@link ActorSystem.Builder#messagePolicy(MessagePolicy)}. Applies to every {@code tell} on an
 * actor's channels.
 */
public enum MessagePolicy {
    /**
     * Messages are passed by reference, unchecked: the fastest; sender and receiver share whatever
     * the message reaches, so messages should be immutable. The default.
     */
    BY_REFERENCE,
    /**
     * Every message must be deeply immutable, or {@code tell} throws
     * {@link IllegalArgumentException} naming the offending class and field. Immutable are: strings,
     * boxed primitives, enums, refs and channels, the JDK's unmodifiable collections
     * ({@code List.of}, {@code Set.of}, {@code Map.of}, {@code copyOf}, {@code Stream.toList}) with
     * immutable elements, records and classes whose fields are all final and hold immutable values,
     * and types annotated {@link Immutable}. The verdict on each class is cached, so after the first
     * send a flat message costs one lookup.
     */
    VERIFY_IMMUTABLE,
    /**
     * Every message is deep-copied at {@code tell} by the system's {@link MessageCopier} (by default
     * through Java serialization), so the receiver never shares state with the sender. A message
     * that {@link #VERIFY_IMMUTABLE} would accept is passed by reference instead, since no copy of it
     * could differ from it. A message that cannot be copied makes
     * {@code tell} throw {@link IllegalArgumentException} naming its class.
     */
    COPY
}
