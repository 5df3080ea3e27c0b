package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.telemetry.Telemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

class ObservabilityTest {

    private static final String[] EVENTS = {
        "io.weft.MessageHandled", "io.weft.ActorStarted", "io.weft.ActorStopped", "io.weft.ActorFailed",
        "io.weft.MailboxOverflow", "io.weft.BlockedWorker"
    };

    @Test
    void jfrEventsAreRecordedAndReadBack() throws Exception {
        Path file = Files.createTempFile("weft-", ".jfr");
        try (Recording recording = new Recording()) {
            for (String e : EVENTS) {
                recording.enable(e);
            }
            recording.start();
            try (ActorSystem system = ActorSystem.builder().name("jfr").parallelism(2).build()) {
                CountDownLatch handled = new CountDownLatch(10);
                ActorRef<Integer> counter = system.spawn("counter", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                        .match(Integer.class, n -> handled.countDown())
                        .build())));
                for (int i = 0; i < 10; i++) {
                    counter.tell(i);
                }
                assertTrue(handled.await(30, TimeUnit.SECONDS));

                CountDownLatch failed = new CountDownLatch(1);
                system.lifecycle().subscribe(e -> {
                    if (e.kind() == LifecycleEvent.Kind.FAILED) {
                        failed.countDown();
                    }
                });
                ActorRef<String> faulty = system.spawn("faulty", self -> self.react(Receive.<String>handler()
                        .match(String.class, s -> {
                            throw new IllegalStateException("planted failure: " + s);
                        })
                        .build()));
                faulty.tell("boom");
                assertTrue(failed.await(30, TimeUnit.SECONDS));

                // a bounded mailbox whose actor is held in its body: the 101st message overflows
                CountDownLatch release = new CountDownLatch(1);
                ActorRef<Integer> full = system.spawn(Props.named("full").withMailbox(Mailbox.bounded(100, Mailbox.Overflow.DROP_NEW)), self -> {
                    awaitQuietly(release);
                    self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> { }).build()));
                });
                for (int i = 0; i < 101; i++) {
                    full.tell(i);
                }
                assertEquals(100, system.metrics().mailboxDepth(full));
                release.countDown();

                assertTrue(Telemetry.blockedWorker(counter, Thread.currentThread(), Duration.ofMillis(250)));
                assertFalse(Telemetry.blockedWorker(counter, Thread.currentThread(), Duration.ofMillis(500)), "logged once per actor");
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Files.deleteIfExists(file);
        Map<String, List<RecordedEvent>> byName = events.stream().collect(Collectors.groupingBy(e -> e.getEventType().getName()));
        List<RecordedEvent> handledEvents = byName.getOrDefault("io.weft.MessageHandled", List.of()).stream()
                .filter(e -> "counter".equals(e.getString("actor"))).toList();
        assertEquals(10, handledEvents.size(), "one MessageHandled per message to counter");
        assertEquals("java.lang.Integer", handledEvents.get(0).getString("messageClass"));
        assertTrue(handledEvents.stream().allMatch(e -> e.getDuration("queueTime").toNanos() >= 0),
                "messages sent while MessageHandled is recorded carry their queue time");
        assertTrue(byName.get("io.weft.ActorStarted").stream().anyMatch(e -> "faulty".equals(e.getString("actor"))));
        assertTrue(byName.get("io.weft.ActorStopped").stream().anyMatch(e -> "counter".equals(e.getString("actor"))));
        RecordedEvent failure = byName.get("io.weft.ActorFailed").get(0);
        assertEquals("faulty", failure.getString("actor"));
        assertEquals(IllegalStateException.class.getName(), failure.getString("exceptionClass"));
        RecordedEvent overflow = byName.get("io.weft.MailboxOverflow").get(0);
        assertEquals("full", overflow.getString("actor"));
        assertEquals("DROP_NEW", overflow.getString("policy"));
        assertEquals(2, byName.get("io.weft.BlockedWorker").size());
    }

    @Test
    void messageHandledIsOffByDefault() throws Exception {
        Path file = Files.createTempFile("weft-", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.weft.ActorStopped"); // a recording runs, but MessageHandled is not enabled
            recording.start();
            try (ActorSystem system = ActorSystem.builder().name("jfr-off").parallelism(1).build()) {
                CompletableFuture<Integer> r = system.ask(system.<Integer>spawn("echo", self -> self.react(Receive.<Integer>handler()
                        .match(Integer.class, n -> self.reply(n)).build())), 1, Duration.ofSeconds(30));
                assertEquals(1, r.get(30, TimeUnit.SECONDS));
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Files.deleteIfExists(file);
        assertTrue(events.stream().noneMatch(e -> e.getEventType().getName().equals("io.weft.MessageHandled")));
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("io.weft.ActorStopped")));
    }

    @Test
    void metricsCountActorsMessagesAndDeadLetters() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("metrics").parallelism(2).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(100);
            ActorRef<Integer> slow = system.spawn("slow", self -> {
                awaitQuietly(release);
                self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> done.countDown()).build()));
            });
            for (int i = 0; i < 100; i++) {
                slow.tell(i);
            }
            assertEquals(100, system.metrics().mailboxDepth(slow));
            assertEquals(1, system.metrics().liveActors());
            release.countDown();
            assertTrue(done.await(30, TimeUnit.SECONDS));
            assertTrue(system.metrics().messagesSent() >= 100);
            // the count is taken after the handler returns: wait for it rather than race it
            awaitTrue(() -> system.metrics().messagesHandled() >= 100);
            ActorRef<Integer> once = system.spawn(self -> self.react(Receive.<Integer>handler().match(Integer.class, n -> { }).build()));
            CountDownLatch stopped = new CountDownLatch(1);
            system.lifecycle().subscribe(e -> {
                if (e.actor() == once && e.kind() == LifecycleEvent.Kind.STOPPED) {
                    stopped.countDown();
                }
            });
            once.tell(1);
            assertTrue(stopped.await(30, TimeUnit.SECONDS) || once.isTerminated());
            long before = system.metrics().deadLetters();
            once.tell(2);
            assertEquals(before + 1, system.metrics().deadLetters());
            assertEquals(-1, system.metrics().mailboxDepth(once));
            assertTrue(system.metrics().toString().contains("deadLetters="));
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "condition not met within 30 s");
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("test latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
