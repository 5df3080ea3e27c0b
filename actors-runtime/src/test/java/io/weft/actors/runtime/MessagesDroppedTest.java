package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code metrics().messagesDropped()} counts every message a full bounded mailbox does not queue,
 * under every policy: dropped ones (also dead letters) and refused ones (thrown to the sender).
 */
class MessagesDroppedTest {

    /** An actor held in the handler of its first message until released, then stopping if asked. */
    private static final class Held {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ActorRef<Integer> ref;

        Held(ActorSystem system, Mailbox mailbox, boolean stopAfterRelease) {
            ref = system.spawn(Props.defaults().withMailbox(mailbox), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> {
                        if (n == 0) {
                            entered.countDown();
                            await(release);
                            if (stopAfterRelease) {
                                self.stop();
                            }
                        }
                    }).build())));
            ref.tell(0);
            await(entered);
        }
    }

    @Test
    void failRefusalIsCountedAndIsNotADeadLetter() {
        try (ActorSystem system = ActorSystem.builder().name("dropped-fail").parallelism(2).build()) {
            Held held = new Held(system, Mailbox.bounded(1, Mailbox.Overflow.FAIL), false);
            try {
                held.ref.tell(1);
                MailboxFullException e = assertThrows(MailboxFullException.class, () -> held.ref.tell(2));
                assertTrue(e.getMessage().contains(held.ref.toString()) && e.getMessage().contains("capacity 1"), e.getMessage());
                assertEquals(1, system.metrics().messagesDropped(), "a FAIL refusal is a dropped message");
                assertEquals(0, system.deadLetters().count(), "the sender got the exception and still holds the message");
            } finally {
                held.release.countDown();
            }
        }
    }

    @Test
    void dropNewAndDropOldAreCountedAndAreDeadLetters() {
        for (Mailbox.Overflow overflow : new Mailbox.Overflow[] {Mailbox.Overflow.DROP_NEW, Mailbox.Overflow.DROP_OLD}) {
            try (ActorSystem system = ActorSystem.builder().name("dropped-" + overflow).parallelism(2).build()) {
                Held held = new Held(system, Mailbox.bounded(1, overflow), false);
                try {
                    held.ref.tell(1);
                    held.ref.tell(2);
                    assertEquals(1, system.metrics().messagesDropped(), overflow.toString());
                    assertEquals(1, system.deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW), overflow.toString());
                } finally {
                    held.release.countDown();
                }
            }
        }
    }

    @Test
    void blockRefusalToAReactSenderIsCounted() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("dropped-block-react").parallelism(2).build()) {
            Held held = new Held(system, Mailbox.bounded(1, Mailbox.Overflow.BLOCK), false);
            try {
                held.ref.tell(1);
                CompletableFuture<Throwable> thrown = new CompletableFuture<>();
                ActorRef<String> sender = system.spawn(self -> self.react(Receive.<String>handler().match(String.class, s -> {
                    try {
                        held.ref.tell(2);
                        thrown.complete(null);
                    } catch (IllegalStateException e) {
                        thrown.complete(e);
                    }
                }).build()));
                sender.tell("go");
                Throwable t = thrown.get(30, TimeUnit.SECONDS);
                assertTrue(t instanceof IllegalStateException && t.getMessage().contains("policy is BLOCK"), String.valueOf(t));
                assertEquals(1, system.metrics().messagesDropped(), "a BLOCK refusal to a react sender is a dropped message");
            } finally {
                held.release.countDown();
            }
        }
    }

    @Test
    void blockSenderGivingUpOnAStoppedActorIsCountedAndIsADeadLetter() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("dropped-block-stop").parallelism(2).build()) {
            Held held = new Held(system, Mailbox.bounded(1, Mailbox.Overflow.BLOCK), true);
            try {
                held.ref.tell(1);
                Thread sender = Thread.ofPlatform().start(() -> held.ref.tell(2));
                // the actor is held and its mailbox full: the sender can only be parked in BLOCK's wait
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (sender.getState() != Thread.State.TIMED_WAITING && sender.isAlive() && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                }
                assertEquals(Thread.State.TIMED_WAITING, sender.getState(), "the BLOCK sender waits");
                held.release.countDown(); // the handler stops the actor
                sender.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(!sender.isAlive(), "the BLOCK sender gives up once the actor stopped");
                assertEquals(1, system.metrics().messagesDropped(), "the message of a BLOCK sender that gave up is dropped");
                // message 1 was queued when the actor stopped, message 2 was given up
                assertEquals(2, system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED));
            } finally {
                held.release.countDown();
            }
        }
    }
}
