package io.weft.actors.remote;

import io.weft.actors.remote.internal.Output;

/**
 * A growable byte buffer that {@link CodecRegistry#encode(Object, FrameBuffer)} appends frames to,
 * so a transport can keep one per connection and reuse it instead of allocating an array per
 * message.
 *
 * <p>The bytes written so far are {@code array()[0 .. length())}. A failed encode leaves the
 * buffer as it was before the call.
 *
 * <p>Thread-safety: none; use a buffer from one thread at a time.
 */
public sealed interface FrameBuffer permits Output {

    /**
     * Creates an empty buffer.
     *
     * @param initialCapacity the initial array size in bytes, at least 0; the buffer grows as needed
     * @return the buffer
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    static FrameBuffer allocate(int initialCapacity) {
        return new Output(initialCapacity);
    }

    /**
     * The number of bytes written since the buffer was created or last cleared.
     *
     * @return the length, at least 0
     */
    int length();

    /**
     * The backing array; bytes {@code 0 .. length()} are the content. The array is replaced when
     * the buffer grows, so call this again after each encode.
     *
     * @return the backing array, not a copy
     */
    byte[] array();

    /** Empties the buffer, keeping its array for reuse. */
    void clear();

    /**
     * A copy of the content.
     *
     * @return a new array of {@link #length()} bytes
     */
    byte[] toByteArray();
}
