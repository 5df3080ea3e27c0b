/**
 * Weft's streams: typed {@link io.weft.actors.stream.Stage}s composed into pipelines and farms over
 * bounded typed queues, run as actors of an {@link io.weft.actors.ActorSystem} built by the runtime,
 * with {@link java.util.concurrent.Flow} adapters. The implementation ({@code io.weft.actors.stream.internal})
 * is not exported.
 */
module io.weft.actors.stream {
    requires transitive io.weft.actors.api;
    requires io.weft.actors.runtime;
    requires org.jctools.core;

    exports io.weft.actors.stream;
}
