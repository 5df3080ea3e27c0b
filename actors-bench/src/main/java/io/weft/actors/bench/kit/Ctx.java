package io.weft.actors.bench.kit;

/** What a {@link Handler} can do besides computing: know itself, create actors, stop. */
public interface Ctx {

    /**
     * The running actor.
     *
     * @return its reference
     */
    Ref self();

    /**
     * Creates a child actor (on Pekko a child of this actor; elsewhere a sibling).
     *
     * @param handler its behaviour
     * @return its reference
     */
    Ref spawn(Handler handler);

    /** Stops this actor after the current message; later messages are dropped. */
    void stop();
}
