package io.weft.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Receive} as a partial function (Haller and Odersky 2009, §2): cases, guards, channels, orElse. */
class ReceiveTest {

    record Put(int x) {
    }

    record Get() {
    }

    /** A channel stand-in; {@code Receive} compares channels by identity only. */
    private static Channel<Object> channel() {
        return new Channel<>() {
            @Override
            public void tell(Object message) {
            }

            @Override
            public void tell(Object message, ActorRef<?> replyTo) {
            }

            @Override
            public ActorRef<?> owner() {
                return null;
            }
        };
    }

    @Test
    void matchesByClassAndGuardInOrder() {
        Receive<Object, String> r = Receive.<Object, String>returning()
                .match(Put.class, p -> p.x() > 0, p -> "positive " + p.x())
                .match(Put.class, p -> "other " + p.x())
                .match(Number.class, n -> "number " + n)
                .build();
        assertTrue(r.isDefinedAt(new Put(1)));
        assertTrue(r.isDefinedAt(new Put(-1)));
        assertTrue(r.isDefinedAt(3L), "subclasses match");
        assertFalse(r.isDefinedAt("text"));
        assertFalse(r.isDefinedAt(new Get()));
        assertEquals("positive 2", r.apply(new Put(2)));
        assertEquals("other -2", r.apply(new Put(-2)), "a failing guard falls through to the next case");
        assertEquals("number 7", r.apply(7));
        assertSame(Receive.NO_MATCH, r.tryApply(null, "text"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.apply("text"));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    @Test
    void handlerCasesConsumeAndMatchAnyCatchesTheRest() {
        List<Object> seen = new ArrayList<>();
        Receive<Object, Void> r = Receive.<Object>handler()
                .match(Get.class, g -> seen.add("get"))
                .matchAny(m -> seen.add("junk " + m))
                .build();
        assertTrue(r.isDefinedAt("anything"));
        r.apply(new Get());
        r.apply("x");
        assertEquals(List.of("get", "junk x"), seen);
    }

    @Test
    void orElseExtendsAndTheFirstHandlerWins() {
        List<String> seen = new ArrayList<>();
        Receive<Object, Void> base = Receive.<Object>handler()
                .match(Put.class, p -> seen.add("base put"))
                .build();
        Receive<Object, Void> extension = Receive.<Object>handler()
                .match(Put.class, p -> seen.add("extension put"))
                .match(Get.class, g -> seen.add("extension get"))
                .build();
        Receive<Object, Void> both = base.orElse(extension);
        assertFalse(base.isDefinedAt(new Get()));
        assertTrue(both.isDefinedAt(new Get()));
        both.apply(new Put(1));
        both.apply(new Get());
        assertEquals(List.of("base put", "extension get"), seen);
        assertFalse(both.isDefinedAt("text"));
    }

    @Test
    void orElseWithAForeignImplementation() {
        Receive<Object, String> foreign = new Receive<>() {
            @Override
            public boolean isDefinedAt(Channel<?> channel, Object message) {
                return message instanceof String;
            }

            @Override
            public String apply(Channel<?> channel, Object message) {
                return "foreign " + message;
            }

            @Override
            public Object tryApply(Channel<?> channel, Object message) {
                return isDefinedAt(channel, message) ? apply(channel, message) : NO_MATCH;
            }

            @Override
            public boolean hasTimeoutCase() {
                return false;
            }

            @Override
            public String onTimeout() {
                throw new ReceiveTimeoutException("none");
            }

            @Override
            public Receive<Object, String> orElse(Receive<? super Object, ? extends String> other) {
                throw new UnsupportedOperationException();
            }
        };
        Receive<Object, String> r = Receive.<Object, String>returning().match(Integer.class, i -> "int " + i).build().orElse(foreign);
        assertEquals("int 1", r.apply(1));
        assertEquals("foreign s", r.apply("s"));
        assertFalse(r.isDefinedAt(2.0));
        assertSame(Receive.NO_MATCH, r.tryApply(null, 2.0));
        assertThrows(IllegalArgumentException.class, () -> r.apply(2.0));
    }

    @Test
    void casesOnAChannelMatchOnlyThatChannel() {
        Channel<Object> a = channel();
        Channel<Object> b = channel();
        Receive<Object, String> r = Receive.<Object, String>returning()
                .on(a, String.class, s -> "a " + s)
                .on(b, String.class, s -> s.length() > 1, s -> "b " + s)
                .match(String.class, s -> "main " + s)
                .build();
        assertEquals("a x", r.apply(a, "x"));
        assertEquals("b xy", r.apply(b, "xy"));
        assertFalse(r.isDefinedAt(b, "x"), "guard of the channel case");
        assertEquals("main x", r.apply(null, "x"));
        assertFalse(r.isDefinedAt(channel(), "x"), "an unknown channel matches no case");
    }

    @Test
    void timeoutCase() {
        Receive<Object, String> none = Receive.<Object, String>returning().matchAny(m -> "m").build();
        assertFalse(none.hasTimeoutCase());
        assertThrows(ReceiveTimeoutException.class, none::onTimeout);
        Receive<Object, String> with = Receive.<Object, String>returning().onTimeout(() -> "timed out").build();
        assertTrue(with.hasTimeoutCase());
        assertEquals("timed out", with.onTimeout());
        assertEquals("timed out", none.orElse(with).onTimeout(), "orElse keeps a timeout case");
        assertFalse(with.isDefinedAt("anything"), "a timeout case matches no message");
        assertSame(Receive.NO_MATCH, with.tryApply(null, "anything"), "a handler with no message case");
    }

    @Test
    void misuseIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Receive.<Object>handler().build());
        assertTrue(e.getMessage().contains("case"), e.getMessage());
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> Receive.<Object>handler().match(String.class, null));
        assertEquals("action", npe.getMessage());
        npe = assertThrows(NullPointerException.class, () -> Receive.<Object, Object>returning().match(null, x -> x));
        assertEquals("type", npe.getMessage());
        Receive<Object, Void> r = Receive.<Object>handler().matchAny(m -> { }).build();
        npe = assertThrows(NullPointerException.class, () -> r.orElse(null));
        assertEquals("other", npe.getMessage());
    }

    @Test
    void manyCasesAreTriedInOrderAndTheBuilderCanBeReused() {
        Receive.Builder<Object, String> b = Receive.<Object, String>returning();
        for (int i = 0; i < 9; i++) {
            int threshold = i;
            b.match(Integer.class, n -> n == threshold, n -> "case " + threshold);
        }
        Receive<Object, String> nine = b.build();
        b.matchAny(m -> "any");
        Receive<Object, String> ten = b.build();
        for (int i = 0; i < 9; i++) {
            assertEquals("case " + i, nine.apply(i));
            assertEquals("case " + i, ten.apply(i));
        }
        assertFalse(nine.isDefinedAt(9), "a case added after build() is not in the handler built before");
        assertEquals("any", ten.apply(9));
        assertEquals("any", ten.apply("x"));
    }

    @Test
    void handlerCasesAfterTheFirstConsumeInOrderAndReturnNull() {
        List<String> seen = new ArrayList<>();
        Receive<Object, Void> r = Receive.<Object>handler()
                .match(Integer.class, n -> n > 100, n -> seen.add("big " + n))
                .match(Integer.class, n -> seen.add("int " + n))
                .match(String.class, s -> seen.add("string " + s))
                .matchAny(m -> seen.add("any " + m))
                .build();
        assertEquals(null, r.tryApply(null, 101));
        assertEquals(null, r.tryApply(null, 7));
        assertEquals(null, r.tryApply(null, "x"));
        assertEquals(null, r.tryApply(null, 2.5));
        assertEquals(List.of("big 101", "int 7", "string x", "any 2.5"), seen);
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> Receive.<Object>handler().match(Integer.class, n -> { }).match(String.class, null));
        assertEquals("action", npe.getMessage());
    }

    @Test
    void aBuiltHandlerKeepsItsCasesWhileItsBuilderGoesOn() {
        List<String> seen = new ArrayList<>();
        Receive.HandlerBuilder<Object> b = Receive.<Object>handler()
                .match(Put.class, p -> seen.add("put"))
                .match(Get.class, g -> seen.add("get"));
        Receive<Object, Void> two = b.build();
        b.match(String.class, s -> seen.add("string " + s));
        Receive<Object, Void> three = b.build();
        b.matchAny(m -> seen.add("any " + m));
        Receive<Object, Void> four = b.build();
        assertSame(Receive.NO_MATCH, two.tryApply(null, "x"), "a case added after build() is not in the handler");
        assertSame(Receive.NO_MATCH, three.tryApply(null, 1.5));
        assertEquals(null, three.tryApply(null, "x"));
        assertEquals(null, four.tryApply(null, 1.5));
        assertEquals(null, two.tryApply(null, new Get()));
        assertEquals(null, four.tryApply(null, new Put(1)));
        assertEquals(List.of("string x", "any 1.5", "get", "put"), seen);
        assertTrue(two.matchesOnlyWhere(four), "each case of two is covered by a guard-free case of four");
        assertFalse(four.matchesOnlyWhere(two));
    }

    @Test
    void signalsAndGuardsInLaterCasesAreTriedInOrder() {
        List<String> seen = new ArrayList<>();
        Terminated down = new Terminated(null, null);
        Receive<Object, Void> r = Receive.<Object>handler()
                .match(Put.class, p -> p.x() > 10, p -> seen.add("big"))
                .match(Put.class, p -> p.x() > 0, p -> seen.add("small"))
                .onSignal(Terminated.class, t -> seen.add("terminated"))
                .match(Put.class, p -> seen.add("other"))
                .build();
        r.apply(new Put(11));
        r.apply(new Put(1));
        r.apply(new Put(-1));
        r.apply(down);
        assertEquals(List.of("big", "small", "other", "terminated"), seen);
        assertFalse(r.isDefinedAt(new Get()));
        assertSame(Receive.NO_MATCH, r.tryApply(null, new Get()), "an unhandled message is NO_MATCH, for the runtime's unhandled path");
        assertFalse(r.matchesOnlyWhere(r), "a handler with guards is not covered, even by itself");
        Receive<Object, Void> noGuards = Receive.<Object>handler()
                .match(Put.class, p -> { })
                .onSignal(Terminated.class, t -> { })
                .build();
        assertTrue(noGuards.matchesOnlyWhere(noGuards));
    }

    @Test
    void orElseOfChainsKeepsBothOrdersAndTheFirstTimeout() {
        Receive<Object, String> a = Receive.<Object, String>returning()
                .match(Put.class, p -> p.x() > 0, p -> "a positive")
                .match(Get.class, g -> "a get")
                .onTimeout(() -> "a timeout")
                .build();
        Receive<Object, String> b = Receive.<Object, String>returning()
                .match(Put.class, p -> "b put")
                .match(Get.class, g -> "b get")
                .match(String.class, s -> "b string")
                .onTimeout(() -> "b timeout")
                .build();
        Receive<Object, String> ab = a.orElse(b);
        assertEquals("a positive", ab.apply(new Put(1)));
        assertEquals("b put", ab.apply(new Put(-1)));
        assertEquals("a get", ab.apply(new Get()));
        assertEquals("b string", ab.apply("s"));
        assertEquals("a timeout", ab.onTimeout());
        assertSame(Receive.NO_MATCH, ab.tryApply(null, 1));
        Receive<Object, String> timeoutOnly = Receive.<Object, String>returning().onTimeout(() -> "t").build();
        Receive<Object, String> tb = timeoutOnly.orElse(b);
        assertEquals("b put", tb.apply(new Put(1)));
        assertEquals("t", tb.onTimeout());
    }

    /**
     * A handler whose first case is plain (a consumer on the main channel without a guard) keeps
     * no side object: the same matching as the general form, alone, with later cases, and where
     * only a channel, a guard, a result or a timeout case makes the general form.
     */
    @Test
    void plainFirstCasesMatchLikeTheGeneralForm() {
        Channel<Object> a = channel();
        List<String> seen = new ArrayList<>();
        Receive<Object, Void> one = Receive.handler().match(Put.class, p -> seen.add("one " + p.x())).build();
        assertSame(null, one.tryApply(null, new Put(1)));
        assertSame(Receive.NO_MATCH, one.tryApply(null, new Get()), "another class");
        assertSame(Receive.NO_MATCH, one.tryApply(a, new Put(2)), "a plain case is on the main channel only");
        assertFalse(one.isDefinedAt(a, new Put(2)));
        assertTrue(one.isDefinedAt(null, new Put(2)));
        assertFalse(one.hasTimeoutCase());
        assertThrows(ReceiveTimeoutException.class, one::onTimeout);

        Receive<Object, Void> chain = Receive.handler()
                .match(Put.class, p -> seen.add("chain put"))
                .on(a, Get.class, g -> seen.add("chain get on a"))
                .match(Get.class, g -> g != null, g -> seen.add("chain get"))
                .build();
        chain.apply(new Put(3));
        chain.apply(a, new Get());
        chain.apply(new Get());
        assertSame(Receive.NO_MATCH, chain.tryApply(a, new Put(3)));
        assertFalse(chain.isDefinedAt("s"));

        Receive<Object, Void> guarded = Receive.handler().match(Put.class, p -> p.x() > 0, p -> seen.add("guarded")).build();
        assertSame(Receive.NO_MATCH, guarded.tryApply(null, new Put(-1)), "the first case's guard");
        guarded.apply(new Put(1));
        Receive<Object, Void> onChannel = Receive.handler().on(a, Put.class, p -> seen.add("on a")).build();
        assertSame(Receive.NO_MATCH, onChannel.tryApply(null, new Put(1)), "the first case's channel");
        onChannel.apply(a, new Put(1));
        Receive<Object, Void> timed = Receive.handler().match(Put.class, p -> seen.add("timed")).onTimeout(() -> seen.add("timeout")).build();
        timed.apply(new Put(1));
        timed.onTimeout();
        Receive<Object, String> returning = Receive.<Object, String>returning().match(Put.class, p -> "r" + p.x()).build();
        assertEquals("r4", returning.apply(new Put(4)), "a first case with a result");

        Receive<Object, Void> both = one.orElse(guarded).orElse(chain);
        both.apply(new Put(5));
        both.apply(a, new Get());
        assertTrue(one.matchesOnlyWhere(both), "the plain case is covered by the same plain case");
        assertFalse(guarded.matchesOnlyWhere(one), "a guard is never covered");
        assertTrue(one.matchesOnlyWhere(chain), "covered by the chain's plain first case");
        assertFalse(onChannel.matchesOnlyWhere(one), "a channel case is not covered by a main-channel one");
        assertEquals(List.of("one 1", "chain put", "chain get on a", "chain get", "guarded", "on a", "timed", "timeout",
                "one 5", "chain get on a"), seen);
    }
}
