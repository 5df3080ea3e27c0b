package io.weft.actors.remote.internal.aeron;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronEvent;
import io.aeron.exceptions.RegistrationException;
import io.aeron.status.PublicationErrorFrame;
import io.weft.actors.remote.transport.AeronSettings;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Aeron transport engine. */
public final class AeronEngine implements Transport {

    /* design
     * Each engine runs its own embedded media driver, in a fresh directory (under /dev/shm or
     * java.io.tmpdir, named weft-aeron-<pid>-<n>-<random>) that close() deletes, and one Aeron
     * client on it. Lanes are stream ids on one UDP endpoint: bind adds one subscription per lane,
     * the first on the given address (port 0 picks one) tagged so the others share its socket;
     * connect adds one exclusive publication per lane to the peer's endpoint, all three with one
     * session id, which is how the receiver groups them into one inbound link (AeronInbound).
     *
     * Threads (all ended by close): the driver in SHARED threading mode, one thread
     * (weft-aeron-driver-*), plus the driver's async executor (weft-aeron-async-*); one poller
     * (weft-aeron-poll-*), an agent that invokes the client's conductor (no client thread of its
     * own: useConductorAgentInvoker), reads the images and checks the outbound links' liveness;
     * virtual threads (weft-aeron-deliver-*) that call the inbound handler (except ordinary frames,
     * handled on the poller, see AeronInbound) and onLost. The driver and the poller idle with a
     * WakeableIdle (spins, yields, then parks from 1 us up to 1 ms), so an idle engine wakes about
     * a thousand times a second per thread and burns no core; a busy-spin strategy on two cores
     * starves the application (FOUNDATIONS.md). A sender that offered a frame unparks the driver,
     * and the driver after a duty cycle with work unparks the poller, so a frame does not wait for
     * a park to time out on the sending side or between driver and poller.
     *
     * Aeron callbacks (images, error frames) run inside the conductor's invoke on the poller and
     * must not call back into the client (Aeron refuses reentrant calls), so they only record what
     * happened; the poller acts on it after invoke returns.
     *
     * Liveness: the driver's publication connection timeout and image liveness timeout are the
     * settings' peerTimeout. An outbound link is lost when a lane that was connected is no longer,
     * when no lane connected within peerTimeout, or when the receiver rejected it (an error frame).
     */

    private static final Logger LOG = LoggerFactory.getLogger(AeronEngine.class);
    private static final int BASE_STREAM_ID = 0x5745_4600;
    private static final int CONTROL_TERM_LENGTH = 64 << 10;
    /** UDP socket buffers and the receiver window: 2 MiB (Aeron's default window is 128 KiB). */
    private static final int SOCKET_BUFFER = 2 << 20;
    private static final AtomicInteger ENGINES = new AtomicInteger();
    private static final AtomicLong TAGS = new AtomicLong(ThreadLocalRandom.current().nextLong(1 << 20, 1L << 40));

    private final AeronSettings settings;
    private final Path directory;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final ExecutorService executor;
    private final AgentRunner runner;
    /** The poller's idle strategy: the driver wakes it after a duty cycle with work. */
    private final WakeableIdle pollerIdle = new WakeableIdle(null);
    /** The driver's idle strategy: a sender wakes it after offering a frame. */
    private final WakeableIdle driverIdle = new WakeableIdle(pollerIdle::wake);
    private final Set<AeronOutbound> outbound = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Long> errorFrames = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicInteger sessions = new AtomicInteger(ThreadLocalRandom.current().nextInt());
    private final List<Subscription> subscriptions = new ArrayList<>();
    private final ReentrantLock bindLock = new ReentrantLock();
    private volatile InetSocketAddress bound;
    private volatile AeronInbound inbound;

    /**
     * Starts the engine's media driver, client and poller.
     *
     * @param settings the settings
     */
    public AeronEngine(AeronSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        checkUnsafeExported();
        int n = ENGINES.incrementAndGet();
        this.directory = settings.parentDirectory().resolve("weft-aeron-" + ProcessHandle.current().pid() + "-" + n + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt()));
        long timeoutNs = settings.peerTimeout().toNanos();
        MediaDriver.Context dctx = new MediaDriver.Context()
                .aeronDirectoryName(directory.toString())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(driverIdle)
                .sharedThreadFactory(named("weft-aeron-driver-" + n + "-", false))
                .asyncExecutorThreadFactory(named("weft-aeron-async-" + n + "-", false))
                .publicationConnectionTimeoutNs(timeoutNs)
                .imageLivenessTimeoutNs(timeoutNs)
                .mtuLength(settings.mtu())
                .socketRcvbufLength(SOCKET_BUFFER)
                .socketSndbufLength(SOCKET_BUFFER)
                .initialWindowLength(SOCKET_BUFFER)
                .errorHandler(this::driverError);
        this.driver = MediaDriver.launchEmbedded(dctx);
        Aeron client;
        try {
            client = Aeron.connect(new Aeron.Context()
                    .aeronDirectoryName(driver.aeronDirectoryName())
                    .useConductorAgentInvoker(true)
                    .threadFactory(named("weft-aeron-client-" + n + "-", false))
                    .errorHandler(e -> LOG.warn("Aeron client in {}: {}", directory, e.toString()))
                    .publicationErrorFrameHandler(this::onErrorFrame));
        } catch (RuntimeException e) {
            driver.close();
            deleteDirectory();
            throw e;
        }
        this.aeron = client;
        this.executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("weft-aeron-deliver-" + n + "-", 0).factory());
        this.runner = new AgentRunner(pollerIdle, e -> LOG.warn("Aeron poller in {}: {}", directory, e.toString(), e), null,
                new Poller(aeron.conductorAgentInvoker()));
        AgentRunner.startOnThread(runner, named("weft-aeron-poll-" + n + "-", true));
    }

    /** Agrona needs jdk.internal.misc; without it Aeron fails deep inside with an IllegalAccessError. */
    private static void checkUnsafeExported() {
        Module agrona = UnsafeBuffer.class.getModule();
        if (!Object.class.getModule().isExported("jdk.internal.misc", agrona)) {
            throw new IllegalStateException("the Aeron transport needs the JVM option --add-exports java.base/jdk.internal.misc="
                    + (agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED")
                    + " (Aeron's Agrona uses jdk.internal.misc.Unsafe; in an executable jar's manifest: "
                    + "Add-Exports: java.base/jdk.internal.misc), or use Transport.grpc");
        }
    }

    private void driverError(Throwable e) {
        if (e instanceof AeronEvent) {
            LOG.debug("Aeron media driver in {}: {}", directory, e.getMessage());
        } else {
            LOG.warn("Aeron media driver in {}: {}", directory, e.toString());
        }
    }

    private static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /**
     * The directory of this engine's media driver, deleted by {@link #close()}.
     *
     * @return the directory
     */
    public Path directory() {
        return directory;
    }

    private static int streamId(Lane lane) {
        return BASE_STREAM_ID + lane.ordinal();
    }

    private static String endpoint(InetSocketAddress a) {
        String host = a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
        if (a.getAddress() instanceof Inet6Address) {
            host = "[" + host + "]";
        }
        return host + ":" + a.getPort();
    }

    @Override
    public InetSocketAddress bind(InetSocketAddress address, InboundHandler handler) throws IOException {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(handler, "handler");
        checkOpen();
        bindLock.lock();
        try {
            if (inbound != null) {
                throw new IllegalStateException("this Aeron transport is already bound to " + bound);
            }
            AeronInbound in = new AeronInbound(handler, settings.maxFrameBytes(), executor);
            long tag = TAGS.incrementAndGet();
            try {
                for (Lane lane : Lane.values()) {
                    ChannelUriStringBuilder channel = new ChannelUriStringBuilder().media("udp").tags(tag, null);
                    if (lane == Lane.CONTROL) {
                        channel.endpoint(endpoint(address));
                    }
                    subscriptions.add(aeron.addSubscription(channel.build(), streamId(lane),
                            image -> in.onAvailable(lane, image), in::onUnavailable));
                }
                bound = new InetSocketAddress(address.getAddress(), boundPort(subscriptions.get(0), address));
            } catch (RegistrationException | IOException e) {
                subscriptions.forEach(Subscription::close);
                subscriptions.clear();
                throw e instanceof IOException io ? io
                        : new IOException("cannot bind the Aeron transport to " + address + ": " + e.getMessage(), e);
            }
            inbound = in;
            return bound;
        } finally {
            bindLock.unlock();
        }
    }

    private static int boundPort(Subscription first, InetSocketAddress address) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String resolved;
        while ((resolved = first.resolvedEndpoint()) == null && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000);
        }
        if (resolved == null) {
            throw new IOException("the Aeron media driver did not report the port it bound for " + address);
        }
        return Integer.parseInt(resolved.substring(resolved.lastIndexOf(':') + 1));
    }

    @Override
    public OutboundLink connect(InetSocketAddress peer, Consumer<Throwable> onLost) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(onLost, "onLost");
        checkOpen();
        int session = sessions.incrementAndGet();
        ExclusivePublication[] pubs = new ExclusivePublication[Lane.values().length];
        try {
            for (Lane lane : Lane.values()) {
                String channel = new ChannelUriStringBuilder().media("udp").endpoint(endpoint(peer))
                        .sessionId(session)
                        .termLength(lane == Lane.CONTROL ? CONTROL_TERM_LENGTH : settings.termLength())
                        .mtu(settings.mtu())
                        .build();
                pubs[lane.ordinal()] = aeron.addExclusivePublication(channel, streamId(lane));
            }
        } catch (RuntimeException e) {
            for (ExclusivePublication p : pubs) {
                if (p != null) {
                    p.close();
                }
            }
            if (closed.get()) {
                throw new IllegalStateException("the Aeron transport is closed", e);
            }
            throw e;
        }
        Consumer<Throwable> lost = cause -> {
            try {
                executor.execute(() -> onLost.accept(cause));
            } catch (RejectedExecutionException e) {
                LOG.debug("onLost for {} not called: the engine is closing", peer);
            }
        };
        AeronOutbound link = new AeronOutbound(peer, pubs, settings.maxFrameBytes(), lost, outbound::remove, driverIdle::wake);
        outbound.add(link);
        if (closed.get()) {
            link.close();
            throw new IllegalStateException("the Aeron transport is closed");
        }
        return link;
    }

    private void onErrorFrame(PublicationErrorFrame frame) {
        errorFrames.add(frame.registrationId());
    }

    @Override
    public int maxFrameBytes() {
        return settings.maxFrameBytes();
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the Aeron transport is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<AeronOutbound> links = List.copyOf(outbound);
        for (AeronOutbound link : links) {
            link.close();
        }
        for (AeronOutbound link : links) {
            link.awaitSenders();
        }
        AeronInbound in = inbound;
        if (in != null) {
            in.closeAll();
        }
        runner.close();
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Aeron transport in {}: an inbound handler did not return within 10 s of close; interrupting it", directory);
                executor.shutdownNow();
                executor.awaitTermination(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        try {
            aeron.close();
        } finally {
            driver.close();
            deleteDirectory();
        }
    }

    private void deleteDirectory() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete the Aeron directory {}: {}", directory, e.toString());
        }
    }

    /** The poller: the client's conductor, the images, the links' liveness. */
    private final class Poller implements Agent {
        private final AgentInvoker conductor;
        private long nextCheckNs;

        Poller(AgentInvoker conductor) {
            this.conductor = conductor;
        }

        @Override
        public int doWork() {
            int work = conductor.invoke();
            AeronInbound in = inbound;
            if (in != null) {
                work += in.poll();
            }
            Long reg;
            while ((reg = errorFrames.poll()) != null) {
                for (AeronOutbound link : outbound) {
                    if (link.owns(reg)) {
                        work += link.lose(new IOException("the peer at " + link.peer() + " refused the link")) ? 1 : 0;
                    }
                }
            }
            long now = System.nanoTime();
            if (now - nextCheckNs >= 0) {
                nextCheckNs = now + TimeUnit.MILLISECONDS.toNanos(20);
                long timeoutNs = settings.peerTimeout().toNanos();
                for (AeronOutbound link : outbound) {
                    Throwable cause = link.checkAlive(now, timeoutNs);
                    if (cause != null) {
                        link.lose(cause);
                        work++;
                    }
                }
            }
            return work;
        }

        @Override
        public String roleName() {
            return "weft-aeron-poller";
        }
    }
}
