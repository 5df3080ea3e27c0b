package io.weft.actors.bench.kit;

/**
 * One implementation of benchmark actors: Weft react, Weft thread-based, Pekko classic, or one
 * thread per actor with a {@code BlockingQueue}. Created once per comparison run and reused by
 * every workload; each workload stops the actors it created.
 */
public interface Kit extends AutoCloseable {

    /**
     * The implementation's short name ({@code weft}, {@code pekko}...).
     *
     * @return the name
     */
    String name();

    /**
     * Creates an actor from outside any actor.
     *
     * @param handler its behaviour
     * @return its reference
     */
    Ref spawn(Handler handler);

    /**
     * The largest number of live actors this implementation can sensibly run (platform threads
     * cannot have hundreds of thousands).
     *
     * @return a bound on live actors
     */
    default int maxActors() {
        return Integer.MAX_VALUE;
    }

    @Override
    void close();
}
