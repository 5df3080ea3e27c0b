/**
 * The transport SPI of Weft's remote actors: an engine moves opaque frames between processes on
 * three {@link io.weft.actors.remote.transport.Lane lanes} (control, ordinary, large), with a
 * maximum frame size, per-lane order, backpressure and lost-peer events. The remoting layer builds
 * addresses, handshakes, acknowledgement, failure detection and the codec on top of it.
 *
 * <p>Engines: {@link io.weft.actors.remote.transport.Transport#grpc} (gRPC over HTTP/2, TLS and mutual
 * TLS; the default) and {@link io.weft.actors.remote.transport.Transport#aeron} (Aeron UDP with an
 * embedded media driver; faster, no TLS). An engine is tested by extending the contract suite
 * {@code TransportContract} in this module's tests.
 */
package io.weft.actors.remote.transport;
