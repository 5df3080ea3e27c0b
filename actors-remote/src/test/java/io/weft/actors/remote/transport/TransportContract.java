package io.weft.actors.remote.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.runtime.testing.Conditions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Transport} engine keeps. An engine's test extends this class and says
 * how to make an engine and which threads are its own.
 */
public abstract class TransportContract {

    /** For subclasses. */
    protected TransportContract() {
    }

    /**
     * A new unbound engine.
     *
     * @param maxFrameBytes its maximum frame size
     * @return the engine
     */
    protected abstract Transport newTransport(int maxFrameBytes);

    /**
     * The prefix of the names of the threads the engine starts, to check that close ends them.
     *
     * @return the prefix
     */
    protected abstract String threadNamePrefix();

    private final List<Transport> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(Transport::close);
    }

    private Transport open(int max) {
        Transport t = newTransport(max);
        opened.add(t);
        return t;
    }

    /** Collects what a bound transport receives. */
    static class Recorder implements InboundHandler {
        final ConcurrentHashMap<Lane, ConcurrentLinkedQueue<byte[]>> frames = new ConcurrentHashMap<>();
        final BlockingQueue<String> refusals = new ArrayBlockingQueue<>(100);
        final BlockingQueue<InboundLink> closed = new ArrayBlockingQueue<>(100);
        final AtomicInteger count = new AtomicInteger();
        volatile Consumer<byte[]> onLarge = f -> { };
        volatile CountDownLatch countdown = new CountDownLatch(0);

        @Override
        public void onFrame(InboundLink from, Lane lane, byte[] frame) {
            assertNotNull(from);
            if (lane == Lane.LARGE) {
                onLarge.accept(frame);
            }
            frames.computeIfAbsent(lane, l -> new ConcurrentLinkedQueue<>()).add(frame);
            count.incrementAndGet();
            countdown.countDown();
        }

        @Override
        public void onRefused(InboundLink from, String reason) {
            refusals.offer(reason);
        }

        @Override
        public void onClosed(InboundLink link, Throwable cause) {
            closed.offer(link);
        }

        List<byte[]> on(Lane lane) {
            return new ArrayList<>(frames.getOrDefault(lane, new ConcurrentLinkedQueue<>()));
        }
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    private static byte[] numbered(int n, int size) {
        byte[] b = new byte[size];
        ByteBuffer.wrap(b).putInt(n);
        return b;
    }

    private static int number(byte[] b) {
        return ByteBuffer.wrap(b).getInt();
    }

    @Test
    void framesOnEachLaneArriveInSendOrder() throws Exception {
        Transport receiver = open(1 << 20);
        Recorder rec = new Recorder();
        int perLane = 5_000;
        rec.countdown = new CountDownLatch(perLane * 3);
        InetSocketAddress at = receiver.bind(loopback(), rec);
        Transport sender = open(1 << 20);
        OutboundLink link = sender.connect(at, e -> { });
        List<Thread> threads = new ArrayList<>();
        for (Lane lane : Lane.values()) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < perLane; i++) {
                        link.send(lane, numbered(i, lane == Lane.LARGE ? 4096 : 16));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertTrue(rec.countdown.await(30, TimeUnit.SECONDS), "all frames arrive, got " + rec.count.get());
        for (Lane lane : Lane.values()) {
            List<byte[]> got = rec.on(lane);
            assertEquals(perLane, got.size(), lane + " frames");
            for (int i = 0; i < perLane; i++) {
                assertEquals(i, number(got.get(i)), lane + " frame " + i + " out of order");
            }
        }
    }

    @Test
    void aNonBlockingHandlerGetsEachLaneInOrderAndTheEndAfterTheFrames() throws Exception {
        Transport receiver = open(1 << 20);
        int perLane = 3_000;
        AtomicInteger atClose = new AtomicInteger(-1);
        Recorder rec = new Recorder() {
            @Override
            public boolean nonBlocking(Lane lane) {
                return true;
            }

            @Override
            public void onClosed(InboundLink link, Throwable cause) {
                atClose.set(count.get());
                super.onClosed(link, cause);
            }
        };
        rec.countdown = new CountDownLatch(perLane * 3);
        InetSocketAddress at = receiver.bind(loopback(), rec);
        Transport sender = open(1 << 20);
        OutboundLink link = sender.connect(at, e -> { });
        List<Thread> threads = new ArrayList<>();
        for (Lane lane : Lane.values()) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < perLane; i++) {
                        // bursts and gaps, so frames reach the handler both at once and through a queue
                        link.send(lane, numbered(i, i % 7 == 0 ? 6000 : 16));
                        if (i % 50 == 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertTrue(rec.countdown.await(30, TimeUnit.SECONDS), "all frames arrive, got " + rec.count.get());
        for (Lane lane : Lane.values()) {
            List<byte[]> got = rec.on(lane);
            assertEquals(perLane, got.size(), lane + " frames");
            for (int i = 0; i < perLane; i++) {
                assertEquals(i, number(got.get(i)), lane + " frame " + i + " out of order");
            }
        }
        link.close();
        assertNotNull(rec.closed.poll(30, TimeUnit.SECONDS), "the inbound link ends");
        assertEquals(perLane * 3, atClose.get(), "onClosed follows every frame of the link");
    }

    @Test
    void aBlockedLargeLaneDoesNotHoldUpSmallFrames() throws Exception {
        Transport receiver = open(8 << 20);
        Recorder rec = new Recorder();
        CountDownLatch smallArrived = new CountDownLatch(100);
        CountDownLatch largeSeen = new CountDownLatch(1);
        AtomicInteger largeHandled = new AtomicInteger();
        rec.onLarge = f -> {
            largeHandled.incrementAndGet();
            largeSeen.countDown();
            try {
                // the large lane stays blocked until the small frames sent after it have arrived
                smallArrived.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        InboundHandler handler = new InboundHandler() {
            @Override
            public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                rec.onFrame(from, lane, frame);
                if (lane == Lane.ORDINARY) {
                    smallArrived.countDown();
                }
            }

            @Override
            public void onRefused(InboundLink from, String reason) {
                rec.onRefused(from, reason);
            }

            @Override
            public void onClosed(InboundLink link, Throwable cause) {
                rec.onClosed(link, cause);
            }
        };
        InetSocketAddress at = receiver.bind(loopback(), handler);
        Transport sender = open(8 << 20);
        OutboundLink link = sender.connect(at, e -> { });
        // enough large frames to fill every buffer between the two ends while the receiver is blocked
        Thread large = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < 6; i++) {
                    link.send(Lane.LARGE, numbered(i, 7 << 20));
                }
            } catch (InterruptedException | IllegalStateException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(largeSeen.await(30, TimeUnit.SECONDS), "the first large frame arrives");
        for (int i = 0; i < 100; i++) {
            link.send(Lane.ORDINARY, numbered(i, 64));
        }
        assertTrue(smallArrived.await(30, TimeUnit.SECONDS),
                "small frames arrive while the large lane is blocked; got " + rec.on(Lane.ORDINARY).size());
        assertEquals(1, largeHandled.get(), "the large lane was still blocked when the small frames arrived");
        large.join(30_000);
    }

    @Test
    void theMaximumFrameSizeIsEnforcedOnBothSides() throws Exception {
        Transport receiver = open(64 * 1024);
        Recorder rec = new Recorder();
        InetSocketAddress at = receiver.bind(loopback(), rec);
        Transport sender = open(1 << 20);
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = sender.connect(at, e -> lost.countDown());
        assertThrows(IllegalArgumentException.class, () -> link.send(Lane.ORDINARY, new byte[(1 << 20) + 1]));
        assertThrows(IllegalArgumentException.class, () -> link.send(Lane.ORDINARY, new byte[0]));
        link.send(Lane.ORDINARY, numbered(1, 64 * 1024));
        link.send(Lane.ORDINARY, numbered(2, 64 * 1024 + 1));
        String reason = rec.refusals.poll(30, TimeUnit.SECONDS);
        assertNotNull(reason, "the receiver reports the oversized frame");
        List<byte[]> got = rec.on(Lane.ORDINARY);
        assertEquals(1, got.size(), "only the frame within the maximum was delivered");
        assertEquals(1, number(got.get(0)));
    }

    @Test
    void aLinkWhosePeerClosesIsReportedLost() throws Exception {
        Transport receiver = open(1 << 20);
        Recorder rec = new Recorder();
        rec.countdown = new CountDownLatch(1);
        InetSocketAddress at = receiver.bind(loopback(), rec);
        Transport sender = open(1 << 20);
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = sender.connect(at, e -> lost.countDown());
        link.send(Lane.CONTROL, numbered(1, 8));
        assertTrue(rec.countdown.await(30, TimeUnit.SECONDS));
        receiver.close();
        assertTrue(lost.await(30, TimeUnit.SECONDS), "onLost is called when the peer goes away");
        assertFalse(link.isOpen());
        assertThrows(IllegalStateException.class, () -> link.send(Lane.CONTROL, numbered(2, 8)));
    }

    @Test
    void aLinkToNobodyIsReportedLost() throws Exception {
        InetSocketAddress free;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
        Transport sender = open(1 << 20);
        CountDownLatch lost = new CountDownLatch(1);
        sender.connect(free, e -> lost.countDown());
        assertTrue(lost.await(30, TimeUnit.SECONDS), "onLost is called when nobody listens");
    }

    @Test
    void closingAnInboundLinkEndsItAndTheSenderSeesItLost() throws Exception {
        Transport receiver = open(1 << 20);
        Recorder rec = new Recorder();
        InboundLink[] first = new InboundLink[1];
        CountDownLatch got = new CountDownLatch(1);
        InetSocketAddress at = receiver.bind(loopback(), new InboundHandler() {
            @Override
            public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                first[0] = from;
                got.countDown();
            }

            @Override
            public void onRefused(InboundLink from, String reason) {
                rec.onRefused(from, reason);
            }

            @Override
            public void onClosed(InboundLink link, Throwable cause) {
                rec.onClosed(link, cause);
            }
        });
        Transport sender = open(1 << 20);
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = sender.connect(at, e -> lost.countDown());
        link.send(Lane.ORDINARY, numbered(1, 8));
        assertTrue(got.await(30, TimeUnit.SECONDS));
        first[0].close();
        assertEquals(first[0], rec.closed.poll(30, TimeUnit.SECONDS), "onClosed names the closed link");
        assertTrue(lost.await(30, TimeUnit.SECONDS), "the sender sees its link lost");
    }

    @Test
    void closeReleasesThePortTheLinksAndTheThreads() throws Exception {
        Transport receiver = newTransport(1 << 20);
        Recorder rec = new Recorder();
        rec.countdown = new CountDownLatch(1);
        InetSocketAddress at = receiver.bind(loopback(), rec);
        Transport sender = newTransport(1 << 20);
        OutboundLink link = sender.connect(at, e -> { });
        link.send(Lane.ORDINARY, numbered(1, 8));
        assertTrue(rec.countdown.await(30, TimeUnit.SECONDS));
        sender.close();
        receiver.close();
        receiver.close();
        assertFalse(link.isOpen());
        assertThrows(IllegalStateException.class, () -> link.send(Lane.ORDINARY, numbered(2, 8)));
        assertThrows(IllegalStateException.class, () -> sender.connect(at, e -> { }));
        Transport again = open(1 << 20);
        assertEquals(at.getPort(), again.bind(at, new Recorder()).getPort(), "the port is free again");
        again.close();
        Conditions.await(Duration.ofSeconds(10), () -> threadsLeft().isEmpty(), () -> "threads left after close: " + threadsLeft());
    }

    /** The names of this transport's threads still alive. */
    private List<String> threadsLeft() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(threadNamePrefix()))
                .map(Thread::getName).toList();
    }
}
