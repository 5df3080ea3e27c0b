package io.weft.actors.runtime.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Immutable;
import io.weft.actors.MessagePolicy;
import io.weft.actors.Receive;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Safe messaging: BY_REFERENCE, VERIFY_IMMUTABLE and COPY. */
class MessagePolicyTest {

    record Holder(List<String> items) implements Serializable {
    }

    record Nested(String name, Holder holder, Map<String, Integer> counts, Optional<Instant> when) {
    }

    enum Color { RED }

    static final class NotFinal {
        int value;
    }

    @Immutable
    static final class Declared {
        final int[] trustedByDeclaration = {1};
    }

    record WithRef(ActorRef<Object> ref, List<String> items) implements Serializable {
    }

    static final class NotSerializable {
        final ArrayList<String> items = new ArrayList<>();
    }

    private static ActorSystem system(MessagePolicy policy) {
        return ActorSystem.builder().name("policy-" + policy).parallelism(2).messagePolicy(policy).build();
    }

    private static ActorRef<Object> sink(ActorSystem system, CompletableFuture<Object> got) {
        return system.spawn(self -> self.react(Receive.<Object>handler().matchAny(got::complete).build()));
    }

    @Test
    void verifyImmutableRejectsARecordHoldingAnArrayListNamingClassAndField() {
        try (ActorSystem system = system(MessagePolicy.VERIFY_IMMUTABLE)) {
            ActorRef<Object> sink = sink(system, new CompletableFuture<>());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sink.tell(new Holder(new ArrayList<>(List.of("a")))));
            assertTrue(e.getMessage().contains(Holder.class.getName() + ".items"), e.getMessage());
            assertTrue(e.getMessage().contains("java.util.ArrayList"), e.getMessage());
        }
    }

    @Test
    void verifyImmutableAcceptsImmutableMessages() throws Exception {
        try (ActorSystem system = system(MessagePolicy.VERIFY_IMMUTABLE)) {
            CompletableFuture<Object> got = new CompletableFuture<>();
            ActorRef<Object> sink = sink(system, got);
            Holder ok = new Holder(List.of("a", "b"));
            sink.tell(ok);
            assertSame(ok, got.get(30, TimeUnit.SECONDS), "passed by reference once verified");
            ActorRef<Object> other = sink(system, new CompletableFuture<>());
            for (Object m : List.of("s", 1, 2L, 3.0, Color.RED, Set.of(1), Map.of("k", 1), List.copyOf(List.of(1)),
                    Stream.of(1, 2).toList(), Collections.emptyList(), List.of(), new Declared(),
                    new Nested("n", ok, Map.of("x", 1), Optional.of(Instant.EPOCH)), new WithRef(sink, List.of()))) {
                other.tell(m);
            }
        }
    }

    @Test
    void verifyImmutableRejectsOtherMutableShapes() {
        try (ActorSystem system = system(MessagePolicy.VERIFY_IMMUTABLE)) {
            ActorRef<Object> sink = sink(system, new CompletableFuture<>());
            for (Object m : List.of(new NotFinal(), new int[] {1}, Collections.unmodifiableList(new ArrayList<>()),
                    new Nested("n", new Holder(List.of()), new java.util.HashMap<>(), Optional.empty()),
                    List.of(new Holder(new ArrayList<>())), new AtomicInteger())) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sink.tell(m), m.getClass().getName());
                assertTrue(e.getMessage().contains("immutable"), e.getMessage());
            }
        }
    }

    @Test
    void verifyImmutableAppliesToOpenedChannelsToo() throws Exception {
        try (ActorSystem system = system(MessagePolicy.VERIFY_IMMUTABLE)) {
            CompletableFuture<io.weft.actors.Channel<Holder>> channel = new CompletableFuture<>();
            system.spawn(self -> {
                channel.complete(self.open(Holder.class));
                self.react(Receive.<Object>handler().matchAny(m -> { }).build());
            });
            io.weft.actors.Channel<Holder> c = channel.get(30, TimeUnit.SECONDS);
            assertThrows(IllegalArgumentException.class, () -> c.tell(new Holder(new ArrayList<>())));
        }
    }

    @Test
    void copyGivesTheReceiverADeepCopyAndKeepsRefs() throws Exception {
        try (ActorSystem system = system(MessagePolicy.COPY)) {
            CompletableFuture<Object> got = new CompletableFuture<>();
            ActorRef<Object> sink = sink(system, got);
            ArrayList<String> items = new ArrayList<>(List.of("a"));
            WithRef sent = new WithRef(sink, items);
            sink.tell(sent);
            items.add("changed after send");
            WithRef received = (WithRef) got.get(30, TimeUnit.SECONDS);
            assertNotSame(sent, received);
            assertEquals(List.of("a"), received.items());
            assertSame(sink, received.ref(), "a ref is a name: passed as is");
            CompletableFuture<Object> got2 = new CompletableFuture<>();
            String s = "immutable";
            sink(system, got2).tell(s);
            assertSame(s, got2.get(30, TimeUnit.SECONDS), "immutable leaves are not copied");
        }
    }

    @Test
    void copyFailsClearlyForANonCopyableMessage() {
        try (ActorSystem system = system(MessagePolicy.COPY)) {
            ActorRef<Object> sink = sink(system, new CompletableFuture<>());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sink.tell(new NotSerializable()));
            assertTrue(e.getMessage().contains(NotSerializable.class.getName()), e.getMessage());
            assertTrue(e.getMessage().contains("Serializable"), e.getMessage());
        }
    }

    @Test
    void copyUsesAPluggableCopier() throws Exception {
        AtomicInteger copies = new AtomicInteger();
        try (ActorSystem system = ActorSystem.builder().name("copier").parallelism(2).messagePolicy(MessagePolicy.COPY)
                .messageCopier(m -> {
                    copies.incrementAndGet();
                    return m instanceof Holder h ? new Holder(List.copyOf(h.items())) : m;
                }).build()) {
            CompletableFuture<Object> got = new CompletableFuture<>();
            sink(system, got).tell(new Holder(new ArrayList<>(List.of("x"))));
            Holder h = (Holder) got.get(30, TimeUnit.SECONDS);
            assertEquals(List.of("x"), h.items());
            assertEquals(1, copies.get());
        }
    }

    @Test
    void byReferenceIsTheDefaultAndSharesTheObject() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("byref").parallelism(2).build()) {
            assertEquals(MessagePolicy.BY_REFERENCE, system.settings().messagePolicy());
            CompletableFuture<Object> got = new CompletableFuture<>();
            Holder h = new Holder(new ArrayList<>());
            sink(system, got).tell(h);
            assertSame(h, got.get(30, TimeUnit.SECONDS));
        }
    }
}
