package io.weft.actors.spi;

import io.weft.actors.ActorRef;

/**
 * A ref to an actor outside this system (a remote actor) that supports death watch itself: the
 * system's {@code watch} and {@code unwatch} hand such a ref's watchers to it, and it tells each
 * watcher a {@link io.weft.actors.Terminated} naming itself, once, when the actor stops or becomes
 * unreachable.
 *
 * <p>Thread-safety: both methods may be called from any thread.
 */
public interface WatchableRef {

    /**
     * Registers a watcher. If the actor is already known to be gone, the watcher is told at once.
     *
     * @param watcher the watching actor's ref, told a {@code Terminated} once
     */
    void addWatcher(ActorRef<?> watcher);

    /**
     * Removes a watcher; it is not told afterwards (a notice already in flight may still arrive).
     *
     * @param watcher the watching actor's ref
     */
    void removeWatcher(ActorRef<?> watcher);
}
