package io.weft.actors.cluster;

/**
 * Settings of a cluster singleton's proxy.
 *
 * <p>Immutable; the {@code with...} methods return a copy.
 */
public final class SingletonSettings {

    private static final SingletonSettings DEFAULTS = new SingletonSettings(1_000);

    private final int bufferSize;

    private SingletonSettings(int bufferSize) {
        this.bufferSize = bufferSize;
    }

    /**
     * The defaults: a buffer of 1,000 messages per proxy.
     *
     * @return the defaults
     */
    public static SingletonSettings defaults() {
        return DEFAULTS;
    }

    /**
     * How many messages a proxy keeps while no instance is known (the singleton is starting or
     * moving); a message beyond that goes to dead letters
     * ({@link io.weft.actors.DeadLetter.Reason#MAILBOX_OVERFLOW}) and is counted by
     * {@link Cluster#singletonDropped(String)}.
     *
     * @param bufferSize at least 0 (0: nothing is kept, every message sent while no instance is known is dropped)
     * @return a copy with that bound
     * @throws IllegalArgumentException if negative
     */
    public SingletonSettings withBufferSize(int bufferSize) {
        if (bufferSize < 0) {
            throw new IllegalArgumentException("singleton settings: the buffer size " + bufferSize
                    + " is negative; give 0 or more (the default is 1,000)");
        }
        return new SingletonSettings(bufferSize);
    }

    /**
     * The proxy's buffer bound.
     *
     * @return the number of messages kept while no instance is known
     */
    public int bufferSize() {
        return bufferSize;
    }

    @Override
    public String toString() {
        return "SingletonSettings[bufferSize=" + bufferSize + "]";
    }
}
