package io.weft.actors.remote.transport;

/** The transport contract over the gRPC engine. */
class GrpcTransportContractTest extends TransportContract {

    @Override
    protected Transport newTransport(int maxFrameBytes) {
        return Transport.grpc(GrpcSettings.defaults().withMaxFrameBytes(maxFrameBytes));
    }

    @Override
    protected String threadNamePrefix() {
        return "weft-grpc-";
    }
}
