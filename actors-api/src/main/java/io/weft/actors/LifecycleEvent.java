package io.weft.actors;

/**
 * A change in an actor's life, published on {@link ActorSystem#lifecycle()} (the system event
 * stream of Prokopec 2016, §2).
 *
 * @param actor the actor
 * @param kind what happened
 * @param cause the failure for {@link Kind#FAILED}, else null
 */
public record LifecycleEvent(ActorRef<?> actor, Kind kind, Throwable cause) {

    /** What happened. */
    public enum Kind {
        /** The actor's body started running. */
        STARTED,
        /** The actor stopped, normally or after a failure. */
        STOPPED,
        /**
         * A handler or the body threw; {@link #cause()} says what. Followed by {@link #STOPPED}, unless
         * the actor's {@link SupervisorStrategy} resumes or restarts it (a restart publishes
         * {@link #STARTED} again).
         */
        FAILED
    }
}
