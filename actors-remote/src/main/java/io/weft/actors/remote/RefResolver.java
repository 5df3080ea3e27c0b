package io.weft.actors.remote;

import io.weft.actors.ActorRef;

/**
 * Turns the address of an actor ref found in a frame back into a ref.
 *
 * <p>Refs travel as their {@link ActorRef#address()} string; the transport that decodes a frame
 * passes a resolver that knows its system and its connections (a local actor, or a proxy that
 * sends over the wire).
 *
 * <p>Thread-safety: {@link #resolve(String)} is called on the thread that decodes, possibly from
 * several threads at once when frames of several connections are decoded in parallel.
 */
@FunctionalInterface
public interface RefResolver {

    /**
     * Returns the ref for an address.
     *
     * @param address the address read from the frame, not null; it came from the network and may
     *     be anything, so check it
     * @return the ref, not null
     * @throws RuntimeException if the address is refused; the decoder reports it as a
     *     {@link CodecException} with reason {@link CodecException.Reason#UNRESOLVED_REF}
     */
    ActorRef<?> resolve(String address);
}
