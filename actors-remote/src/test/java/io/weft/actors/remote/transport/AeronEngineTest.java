package io.weft.actors.remote.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Aeron engine does beyond the transport contract: its files, its idle cost, back
 * pressure, bytes that are not Weft's.
 */
class AeronEngineTest {

    private static AeronSettings settings(Path dir) {
        return AeronSettings.defaults().withMaxFrameBytes(1 << 20).withPeerTimeout(Duration.ofSeconds(2)).withDirectory(dir);
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    private static List<Path> children(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    /** A handler that counts frames and may hold the ordinary lane. */
    private static final class Holding implements InboundHandler {
        final CountDownLatch first = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger frames = new AtomicInteger();

        @Override
        public void onFrame(InboundLink from, Lane lane, byte[] frame) {
            frames.incrementAndGet();
            first.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void onRefused(InboundLink from, String reason) {
        }

        @Override
        public void onClosed(InboundLink link, Throwable cause) {
        }
    }

    @Test
    void closeDeletesTheDriverDirectory(@TempDir Path dir) throws Exception {
        Transport receiver = Transport.aeron(settings(dir));
        Transport sender = Transport.aeron(settings(dir));
        Holding h = new Holding();
        h.release.countDown();
        InetSocketAddress at = receiver.bind(loopback(), h);
        sender.connect(at, e -> { }).send(Lane.ORDINARY, new byte[100]);
        assertTrue(h.first.await(30, TimeUnit.SECONDS));
        List<Path> made = children(dir);
        assertEquals(2, made.size(), "one driver directory per engine: " + made);
        for (Path p : made) {
            assertTrue(p.getFileName().toString().startsWith("weft-aeron-"), p.toString());
        }
        sender.close();
        receiver.close();
        assertEquals(List.of(), children(dir), "the driver directories are deleted on close");
    }

    @Test
    void anIdleEngineBurnsNoCore(@TempDir Path dir) throws Exception {
        try (Transport receiver = Transport.aeron(settings(dir)); Transport sender = Transport.aeron(settings(dir))) {
            Holding h = new Holding();
            h.release.countDown();
            InetSocketAddress at = receiver.bind(loopback(), h);
            sender.connect(at, e -> { }).send(Lane.CONTROL, new byte[8]);
            assertTrue(h.first.await(30, TimeUnit.SECONDS));
            long cpu0 = cpu();
            long wall0 = System.nanoTime();
            Thread.sleep(1_000); // the measured interval: the engines idle, with a link up
            long cpu = cpu() - cpu0;
            long wall = System.nanoTime() - wall0;
            // the whole process: a busy-spinning thread alone would take a core (wall)
            assertTrue(cpu < wall / 4, "the idle process with two engines used " + cpu / 1_000_000 + " ms of CPU in "
                    + wall / 1_000_000 + " ms: an idle strategy spins");
        }
    }

    private static long cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    @Test
    void aSendWaitingOnBackPressureEndsWhenThePeerGoesAway(@TempDir Path dir) throws Exception {
        Transport receiver = Transport.aeron(settings(dir));
        try (Transport sender = Transport.aeron(settings(dir))) {
            Holding h = new Holding();
            InetSocketAddress at = receiver.bind(loopback(), h);
            OutboundLink link = sender.connect(at, e -> { });
            AtomicReference<Throwable> ended = new AtomicReference<>();
            AtomicInteger sent = new AtomicInteger();
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int i = 0; i < 100_000; i++) {
                        link.send(Lane.ORDINARY, new byte[64 << 10]);
                        sent.incrementAndGet();
                    }
                } catch (Throwable e) {
                    ended.set(e);
                }
            });
            assertTrue(h.first.await(30, TimeUnit.SECONDS));
            // the handler holds the lane: the sender fills the buffers, then waits in send
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // the wait parks for at most 1 ms at a time and is RUNNABLE between parks: one sighting counts
            boolean waited = false;
            while (!waited && System.nanoTime() < deadline) {
                waited = t.getState() == Thread.State.TIMED_WAITING;
                Thread.onSpinWait();
            }
            assertTrue(waited, "the sender waits for room");
            int before = sent.get();
            assertTrue(before < 100_000);
            h.release.countDown();
            receiver.close();
            t.join(30_000);
            boolean stuck = t.isAlive();
            t.interrupt();
            t.join(10_000);
            assertFalse(stuck, "the waiting send ended");
            assertInstanceOf(IllegalStateException.class, ended.get(), "the send reports the lost link");
            assertTrue(sent.get() < 100_000, "sent " + sent.get());
        } finally {
            receiver.close();
        }
    }
    @Test
    void garbageOnALaneClosesThatLinkOnly(@TempDir Path dir) throws Exception {
        BlockingQueue<String> refusals = new LinkedBlockingQueue<>();
        BlockingQueue<Throwable> closedWithCause = new LinkedBlockingQueue<>();
        BlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
        try (Transport receiver = Transport.aeron(settings(dir)); Transport sender = Transport.aeron(settings(dir))) {
            InetSocketAddress at = receiver.bind(loopback(), new InboundHandler() {
                @Override
                public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                    frames.add(frame);
                }

                @Override
                public void onRefused(InboundLink from, String reason) {
                    refusals.add(reason);
                }

                @Override
                public void onClosed(InboundLink link, Throwable cause) {
                    if (cause != null) {
                        closedWithCause.add(cause);
                    }
                }
            });
            OutboundLink good = sender.connect(at, e -> { });
            good.send(Lane.ORDINARY, new byte[] {1});
            assertArrayEquals(new byte[] {1}, frames.poll(30, TimeUnit.SECONDS));
            // a raw Aeron publisher on the ordinary lane's stream id, sending a message that is not Weft's
            MediaDriver.Context dctx = new MediaDriver.Context().aeronDirectoryName(dir.resolve("raw").toString())
                    .dirDeleteOnStart(true).dirDeleteOnShutdown(true).threadingMode(ThreadingMode.SHARED)
                    .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000));
            try (MediaDriver driver = MediaDriver.launchEmbedded(dctx);
                    Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
                    ExclusivePublication raw = aeron.addExclusivePublication(
                            "aeron:udp?endpoint=" + at.getAddress().getHostAddress() + ":" + at.getPort(), 0x5745_4601)) {
                UnsafeBuffer garbage = new UnsafeBuffer(new byte[] {-7, -1, -1, -1, 42, 42, 42, 42});
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (raw.offer(garbage) < 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                String reason = refusals.poll(30, TimeUnit.SECONDS);
                assertNotNull(reason, "the garbage is refused");
                assertTrue(reason.contains("unknown message marker -7"), reason);
                assertNotNull(closedWithCause.poll(30, TimeUnit.SECONDS), "its link is closed with a cause");
            }
            good.send(Lane.ORDINARY, new byte[] {2});
            assertArrayEquals(new byte[] {2}, frames.poll(30, TimeUnit.SECONDS), "the other link still works");
            assertTrue(good.isOpen());
            assertEquals(List.of(), List.copyOf(refusals));
        }
    }
}
