package io.weft.actors.remote.transport;

import java.time.Duration;

/** The transport contract over the Aeron engine. */
class AeronTransportContractTest extends TransportContract {

    @Override
    protected Transport newTransport(int maxFrameBytes) {
        return Transport.aeron(AeronSettings.defaults().withMaxFrameBytes(maxFrameBytes).withPeerTimeout(Duration.ofSeconds(2)));
    }

    @Override
    protected String threadNamePrefix() {
        return "weft-aeron-";
    }
}
