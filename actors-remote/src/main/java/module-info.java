/**
 * Weft's remote actors. This module holds the safe binary codec: an explicit registry of stable
 * numeric type ids ({@link io.weft.actors.remote.CodecRegistry}) that encodes records, enums,
 * sealed interfaces' records, strings, primitives' boxes, {@code byte[]}, lists, sets, maps,
 * optionals and actor refs, and decodes nothing it was not told about; the transport SPI
 * ({@link io.weft.actors.remote.transport.Transport}) with its gRPC and Aeron engines.
 *
 * <p>gRPC's and Aeron's jars are automatic modules (they name themselves in their manifests), hence the
 * suppressed lint.
 */
@SuppressWarnings("requires-automatic")
module io.weft.actors.remote {
    requires transitive io.weft.actors.api;
    requires io.grpc;
    requires io.grpc.netty.shaded;
    requires io.aeron.client;
    requires io.aeron.driver;
    requires org.agrona;
    requires org.slf4j;

    exports io.weft.actors.remote;
    exports io.weft.actors.remote.transport;

    requires jdk.jfr;
}
