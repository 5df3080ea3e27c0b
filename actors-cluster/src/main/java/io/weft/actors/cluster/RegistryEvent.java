package io.weft.actors.cluster;

/**
 * A change of the {@link ClusterRegistry} as one member sees it.
 *
 * @param kind added or removed
 * @param name the registered name
 * @param address the actor's remote address, {@code weft://system@host:port/name#id}
 * @param owner the member the actor lives on
 * @param reason why (registered, unregistered, the actor stopped, the owner left the view, ...)
 */
public record RegistryEvent(Kind kind, String name, String address, Member owner, String reason) {

    /** Whether an entry appeared or went away. */
    public enum Kind {
        /** The actor was registered under the name. */
        ADDED,
        /** The entry is gone: unregistered, the actor stopped, or its member left the cluster. */
        REMOVED
    }
}
