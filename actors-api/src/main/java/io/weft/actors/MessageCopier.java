package io.weft.actors;

/**
 * Deep-copies messages for {@link MessagePolicy#COPY}. Set one with
 * {@link ActorSystem.Builder#messageCopier(MessageCopier)}; the default copies through Java
 * serialization and keeps actor refs as they are.
 */
@FunctionalInterface
public interface MessageCopier {

    /**
     * Returns a deep copy of {@code message} that shares no mutable state with it.
     *
     * @param message the message, not null
     * @return the copy
     * @throws IllegalArgumentException if the message cannot be copied, naming its class
     */
    Object copy(Object message);
}
