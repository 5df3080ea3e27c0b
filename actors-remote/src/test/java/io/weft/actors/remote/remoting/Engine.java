package io.weft.actors.remote.remoting;

import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.transport.AeronSettings;
import io.weft.actors.remote.transport.GrpcSettings;
import io.weft.actors.remote.transport.Transport;

/** The transport engines the remoting tests run over; the name is passed to the peer JVM. */
public enum Engine {
    /** gRPC in plaintext. */
    GRPC,
    /** Aeron UDP with an embedded media driver. */
    AERON;

    /**
     * The settings over this engine.
     *
     * @param base the settings to change
     * @return the settings
     */
    public RemoteSettings apply(RemoteSettings base) {
        return switch (this) {
            case GRPC -> base.withGrpc(GrpcSettings.defaults());
            case AERON -> base.withAeron(AeronSettings.defaults());
        };
    }

    /**
     * A bare engine of this kind, for sending frames below the remoting layer.
     *
     * @return an unbound transport
     */
    public Transport raw() {
        return switch (this) {
            case GRPC -> Transport.grpc(GrpcSettings.defaults());
            case AERON -> Transport.aeron(AeronSettings.defaults());
        };
    }
}
