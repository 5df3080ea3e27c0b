package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No carrier pinning on the receive and send paths: a receive-heavy workload of virtual-thread
 * actors runs under a JFR recording of {@code jdk.VirtualThreadPinned} (threshold zero), and the
 * recording must hold no such event. A control case shows that the recording does catch pinning.
 */
class NoPinningTest {

    private static final String PINNED = "jdk.VirtualThreadPinned";

    private static List<RecordedEvent> record(Path dir, String name, Runnable workload) throws Exception {
        Path file = dir.resolve(name + ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            workload.run();
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> pinned = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(PINNED)) {
                pinned.add(e);
            }
        }
        Files.deleteIfExists(file);
        return pinned;
    }

    private static String describe(List<RecordedEvent> events) {
        return events.stream().limit(3).map(RecordedEvent::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void receiveHeavyWorkloadNeverPinsACarrier(@TempDir Path dir) throws Exception {
        // Warm up first: loading classes takes a class loader's monitor, and 200 virtual threads
        // contending for it at once would record the JDK's class loading, not our paths.
        workload(4, 5);
        List<RecordedEvent> pinned = record(dir, "workload", () -> workload(200, 100));
        assertTrue(pinned.isEmpty(), pinned.size() + " pinned parks, e.g.\n" + describe(pinned));
    }

    @Test
    void theRecordingCatchesPinningWhenItHappens(@TempDir Path dir) throws Exception {
        // Parking inside a class initializer pins the carrier on every JDK up to 25 at least.
        List<RecordedEvent> pinned = record(dir, "control", () -> {
            try {
                Thread.ofVirtual().start(() -> assertEquals(1, ParksInInitializer.VALUE)).join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertFalse(pinned.isEmpty(), "the control case must record a pinned park");
    }

    private static final class ParksInInitializer {
        static final int VALUE;

        static {
            LockSupport.parkNanos(1_000_000);
            VALUE = 1;
        }
    }

    /** Pairs of thread-based actors playing ping-pong with blocking receive, timed receives, asks, adopted threads. */
    private static void workload(int pairs, int rounds) {
        try (ActorSystem system = ActorSystem.builder().name("no-pinning").parallelism(2).build()) {
            ActorRef<Integer> doubler = system.spawn("doubler", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, i -> self.reply(i * 2)).build())));
            List<CompletableFuture<Integer>> results = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                CompletableFuture<Integer> result = new CompletableFuture<>();
                results.add(result);
                ActorRef<Object> pong = system.spawnThread("pong-" + p, self -> {
                    for (int r = 0; r < rounds; r++) {
                        self.receive(Receive.<Object>handler().match(Integer.class, i -> self.reply(i + 1)).build());
                    }
                });
                boolean adopted = p % 10 == 0;
                Runnable ping = () -> {
                    ActorContext<Object> self = Actors.self(system);
                    int n = 0;
                    for (int r = 0; r < rounds; r++) {
                        pong.tell(n, self.self());
                        // some waits time out first (parkNanos), then the reply is taken
                        n = self.receiveWithin(Duration.ofSeconds(30), Receive.<Object, Integer>returning()
                                .match(Integer.class, i -> i).build());
                        self.receiveWithin(Duration.ZERO, Receive.<Object, Object>returning()
                                .matchAny(m -> m).onTimeout(() -> "none").build());
                    }
                    n += self.<Integer, Integer>ask(doubler, 0, Duration.ofSeconds(30)).join();
                    result.complete(n);
                };
                if (adopted) {
                    Thread.ofVirtual().start(() -> {
                        try {
                            ping.run();
                        } finally {
                            Actors.release();
                        }
                    });
                } else {
                    system.spawnThread("ping-" + p, self -> ping.run());
                }
            }
            for (CompletableFuture<Integer> r : results) {
                assertEquals(rounds, r.get(60, TimeUnit.SECONDS));
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
