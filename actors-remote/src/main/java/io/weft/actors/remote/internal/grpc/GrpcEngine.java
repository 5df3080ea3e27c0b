package io.weft.actors.remote.internal.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.weft.actors.remote.transport.GrpcSettings;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** The gRPC transport engine. */
public final class GrpcEngine implements Transport {

    /* design
     * Each lane is its own gRPC method (weft.Remote/CONTROL, /ORDINARY, /LARGE), a bidirectional
     * stream whose messages are frames, marshalled as raw bytes. An outbound link opens one
     * ManagedChannel, hence one TCP connection, per lane: HTTP/2 flow control has a connection-wide
     * window, so a large frame the receiver is slow to take would otherwise stall the small lanes of
     * the same connection. The three calls carry one link id in a header; the server groups them
     * into one InboundLink by it.
     *
     * Order: one call per lane, and gRPC delivers a call's messages one at a time in order on a
     * serializing executor. GrpcInbound keeps a bounded window of messages requested (16 on the
     * control and ordinary lanes, 1 on the large lane) and re-requests only as the handler returns,
     * so a blocked handler is backpressure for that lane only.
     *
     * Size: gRPC's maxInboundMessageSize refuses an oversized message before buffering it and
     * closes the call with RESOURCE_EXHAUSTED; a stream tracer sees that status and reports the
     * refusal to the handler.
     *
     * Threads: one event-loop group (named weft-grpc-io-*) for servers and channels and one cached
     * executor (weft-grpc-exec-*) for callbacks, both ended by close().
     */

    static final Metadata.Key<String> LINK_ID = Metadata.Key.of("weft-link", Metadata.ASCII_STRING_MARSHALLER);
    static final String SERVICE = "weft.Remote";

    private static final MethodDescriptor<byte[], byte[]>[] METHODS = methods();

    private final GrpcSettings settings;
    private final EventLoopGroup group;
    private final ExecutorService executor;
    private final Set<GrpcOutbound> outbound = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Server server;
    private volatile GrpcInbound inbound;

    /**
     * Creates an unbound engine and its threads.
     *
     * @param settings the settings
     */
    public GrpcEngine(GrpcSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.group = new MultiThreadIoEventLoopGroup(settings.threads(), named("weft-grpc-io-"), NioIoHandler.newFactory());
        this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
                named("weft-grpc-exec-"));
    }

    @SuppressWarnings("unchecked")
    private static MethodDescriptor<byte[], byte[]>[] methods() {
        MethodDescriptor<byte[], byte[]>[] m = (MethodDescriptor<byte[], byte[]>[]) new MethodDescriptor<?, ?>[Lane.values().length];
        for (Lane lane : Lane.values()) {
            m[lane.ordinal()] = MethodDescriptor.<byte[], byte[]>newBuilder()
                    .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, lane.name()))
                    .setRequestMarshaller(ByteMarshaller.INSTANCE)
                    .setResponseMarshaller(ByteMarshaller.INSTANCE)
                    .build();
        }
        return m;
    }

    static MethodDescriptor<byte[], byte[]> method(Lane lane) {
        return METHODS[lane.ordinal()];
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public InetSocketAddress bind(InetSocketAddress address, InboundHandler handler) throws IOException {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(handler, "handler");
        checkOpen();
        if (server != null) {
            throw new IllegalStateException("this gRPC transport is already bound to " + server.getListenSockets());
        }
        GrpcInbound in = new GrpcInbound(handler, settings.maxFrameBytes());
        ServerServiceDefinition.Builder service = ServerServiceDefinition.builder(SERVICE);
        for (Lane lane : Lane.values()) {
            service.addMethod(method(lane), in.handler(lane));
        }
        Server s = NettyServerBuilder.forAddress(address, serverCredentials())
                .channelType(NioServerSocketChannel.class)
                .bossEventLoopGroup(group)
                .workerEventLoopGroup(group)
                .executor(executor)
                .maxInboundMessageSize(settings.maxFrameBytes())
                .maxInboundMetadataSize(8192)
                .keepAliveTime(settings.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
                .keepAliveTimeout(settings.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS)
                .permitKeepAliveTime(1, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .addStreamTracerFactory(in.tracers())
                .addService(service.build())
                .build();
        s.start();
        server = s;
        inbound = in;
        return (InetSocketAddress) s.getListenSockets().get(0);
    }

    @Override
    public OutboundLink connect(InetSocketAddress peer, Consumer<Throwable> onLost) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(onLost, "onLost");
        checkOpen();
        ManagedChannel[] channels = new ManagedChannel[Lane.values().length];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = NettyChannelBuilder.forAddress(peer, channelCredentials())
                    .channelType(NioSocketChannel.class)
                    .eventLoopGroup(group)
                    .executor(executor)
                    .maxInboundMessageSize(settings.maxFrameBytes())
                    .keepAliveTime(settings.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
                    .keepAliveTimeout(settings.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS)
                    .keepAliveWithoutCalls(true)
                    .disableRetry()
                    .build();
        }
        GrpcOutbound link = new GrpcOutbound(peer, channels, settings.maxFrameBytes(), onLost, outbound::remove);
        outbound.add(link);
        link.start();
        if (closed.get()) {
            link.close();
            throw new IllegalStateException("the gRPC transport is closed");
        }
        return link;
    }

    private ServerCredentials serverCredentials() {
        GrpcSettings.Tls tls = settings.tls();
        if (tls == null) {
            return InsecureServerCredentials.create();
        }
        return TlsServerCredentials.newBuilder()
                .keyManager(tls.keyManagers())
                .trustManager(tls.trustManagers())
                .clientAuth(tls.mutual() ? TlsServerCredentials.ClientAuth.REQUIRE : TlsServerCredentials.ClientAuth.NONE)
                .build();
    }

    private ChannelCredentials channelCredentials() {
        GrpcSettings.Tls tls = settings.tls();
        if (tls == null) {
            return InsecureChannelCredentials.create();
        }
        return TlsChannelCredentials.newBuilder()
                .keyManager(tls.keyManagers())
                .trustManager(tls.trustManagers())
                .build();
    }

    @Override
    public int maxFrameBytes() {
        return settings.maxFrameBytes();
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the gRPC transport is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (GrpcOutbound link : outbound) {
            link.close();
        }
        Server s = server;
        GrpcInbound in = inbound;
        if (in != null) {
            in.closeAll();
        }
        if (s != null) {
            s.shutdownNow();
            await(s);
        }
        for (GrpcOutbound link : outbound) {
            link.awaitClosed();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(Server s) {
        try {
            s.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
