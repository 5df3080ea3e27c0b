package io.weft.actors.bench.kit;

/**
 * One implementation of benchmark actors: Weft react, Weft thread-based, Pekko classic, or one
 * thread per actor with a {@code BlockingQueue}. Created once per comparison run and reused by
 * every workload; each workload stops the actors it created.
 */
public interface Kit extends AutoCloseable {

    /**
     * The system property that sets the pool size of every pool-based kit (Weft react, Pekko's
     * dispatcher, plain ForkJoin), so that both runtimes can be compared with the same number of
     * workers below the machine's processor count; e.g. {@code -Dweft.bench.parallelism=1}.
     * Forked JVMs ({@code compare --forks}) inherit it. Default: the available processors.
     */
    String PARALLELISM_PROPERTY = "weft.bench.parallelism";

    /**
     * The pool size for pool-based kits: {@link #PARALLELISM_PROPERTY} if set, else the available
     * processors.
     *
     * @return at least 1
     * @throws IllegalArgumentException if the property is set but is not a positive integer
     */
    static int parallelism() {
        String value = System.getProperty(PARALLELISM_PROPERTY);
        if (value == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(PARALLELISM_PROPERTY + ": must be a positive integer, was \"" + value + "\"");
    }

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
