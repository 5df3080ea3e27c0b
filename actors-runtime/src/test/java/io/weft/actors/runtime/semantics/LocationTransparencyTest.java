package io.weft.actors.runtime.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Encapsulation and location transparency (Karmani et al. 2009, §3.1, §3.3), through the public API only. */
class LocationTransparencyTest {

    /** An actor object with state that must stay unreachable from its ref. */
    static final class Secretive implements Behavior<Object> {
        final String secret = "SECRET-STATE-42";
        final CompletableFuture<ActorContext<Object>> context = new CompletableFuture<>();

        @Override
        public void start(ActorContext<Object> self) {
            context.complete(self);
            self.loop(() -> self.react(Receive.<Object>handler().matchAny(m -> self.reply(m)).build()));
        }

        @Override
        public String toString() {
            return secret;
        }
    }

    @Test
    void noPublicPathFromARefToTheActorObject() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("encapsulation").parallelism(2).build()) {
            Secretive actor = new Secretive();
            ActorRef<Object> ref = system.spawn("secretive", actor);
            ActorContext<Object> context = actor.context.get(30, TimeUnit.SECONDS);
            // the ref's class is not part of any exported package
            Class<?> type = ref.getClass();
            assertFalse(type.getModule().isExported(type.getPackageName()), type + " is exported");
            assertFalse(Modifier.isPublic(type.getModifiers()), type + " is public");
            // every public no-argument method of the public interfaces leads to values, never to the actor
            for (Class<?> api : new Class<?>[] {ActorRef.class, Channel.class, Object.class}) {
                for (Method m : api.getMethods()) {
                    if (m.getParameterCount() != 0 || m.getName().equals("wait") || m.getName().equals("notify")
                            || m.getName().equals("notifyAll")) {
                        continue;
                    }
                    Object result = m.invoke(ref);
                    assertNotSame(actor, result, m.getName());
                    assertNotSame(context, result, m.getName());
                    if (result != null && !(result instanceof ActorRef<?>)) {
                        assertFalse(String.valueOf(result).contains(actor.secret), m.getName() + " shows state: " + result);
                    }
                }
            }
            assertFalse(ref.toString().contains(actor.secret), ref.toString());
            assertFalse(ref.address().contains(actor.secret), ref.address());
        }
    }

    @Test
    void addressRoundTripsAndAStoppedActorsAddressDeliversToDeadLetters() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("addresses").parallelism(2).build()) {
            CompletableFuture<Void> stopped = new CompletableFuture<>();
            ActorRef<Object> ref = system.spawn("named", self -> self.react(Receive.<Object>handler()
                    .match(String.class, "stop"::equals, s -> self.stop()).build()));
            String address = ref.address();
            assertEquals("weft://addresses/named#" + ref.id(), address);
            assertSame(ref, system.resolve(address));
            system.lifecycle().subscribe(e -> {
                if (e.actor().equals(ref) && e.kind() == io.weft.actors.LifecycleEvent.Kind.STOPPED) {
                    stopped.complete(null);
                }
            });
            ref.tell("stop");
            stopped.get(30, TimeUnit.SECONDS);
            ActorRef<Object> resolved = system.resolve(address);
            assertTrue(resolved.isTerminated());
            assertEquals(address, resolved.address());
            CompletableFuture<DeadLetter> dead = new CompletableFuture<>();
            system.deadLetters().subscribe(dead::complete);
            resolved.tell("hello?");
            DeadLetter d = dead.get(30, TimeUnit.SECONDS);
            assertEquals("hello?", d.message());
            assertEquals(DeadLetter.Reason.RECIPIENT_STOPPED, d.reason());
        }
    }
}
