/**
 * The public API of Weft: actors that wait for messages either by blocking {@code receive} on a
 * thread or by registering a {@code react} continuation, behind one {@link io.weft.actors.ActorRef}.
 *
 * <p>The implementation is found at run time through {@link java.util.ServiceLoader}; add
 * {@code io.weft:actors-runtime} (event-based actors) and {@code io.weft:actors-loom}
 * (thread-based actors) to use it.
 */
module io.weft.actors.api {
    exports io.weft.actors;
    exports io.weft.actors.spi;

    uses io.weft.actors.spi.ActorSystemProvider;
    uses io.weft.actors.spi.RouterProvider;
}
