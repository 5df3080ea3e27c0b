package io.weft.actors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link Receive#matchesOnlyWhere(Receive)}: what lets the runtime skip kept messages a handler
 * cannot match (the rescan invariant of selective receive).
 */
class MatchesOnlyWhereTest {

    private static Receive<Object, Void> ints() {
        return Receive.handler().match(Integer.class, i -> { }).build();
    }

    @Test
    void aGuardFreeHandlerIsCoveredByItselfAndByAnEqualOneBuiltAgain() {
        Receive<Object, Void> h = ints();
        assertTrue(h.matchesOnlyWhere(h));
        assertTrue(ints().matchesOnlyWhere(h)); // loop(() -> react(build())) builds one per message
    }

    @Test
    void aGuardedHandlerIsNeverCoveredNotEvenByItself() {
        Receive<Object, Void> g = Receive.handler().match(Integer.class, i -> i > 0, i -> { }).build();
        assertFalse(g.matchesOnlyWhere(g));
        assertFalse(ints().matchesOnlyWhere(g)); // g declined an Integer by its guard; ints() takes it
    }

    @Test
    void aNarrowerHandlerIsCoveredByAWiderOneButNotTheOtherWayRound() {
        Receive<Object, Void> numbers = Receive.handler().match(Number.class, n -> { }).build();
        assertTrue(ints().matchesOnlyWhere(numbers));
        assertFalse(numbers.matchesOnlyWhere(ints()));
        Receive<Object, Void> both = Receive.handler().match(Integer.class, i -> { }).match(String.class, s -> { }).build();
        assertTrue(ints().matchesOnlyWhere(both));
        assertFalse(both.matchesOnlyWhere(ints()));
        assertTrue(both.matchesOnlyWhere(ints().orElse(Receive.handler().match(String.class, s -> { }).build())));
    }

    @Test
    void aMatchAnyHandlerCoversEveryGuardFreeHandler() {
        Receive<Object, Void> any = Receive.handler().matchAny(m -> { }).build();
        assertTrue(ints().matchesOnlyWhere(any));
        assertFalse(any.matchesOnlyWhere(ints()));
    }

    @Test
    void aHandlerNotBuiltByTheBuildersIsNeverCovered() {
        Receive<Object, Void> h = ints();
        Receive<Object, Void> custom = new Receive<>() {
            @Override
            public boolean isDefinedAt(Channel<?> channel, Object message) {
                return h.isDefinedAt(channel, message);
            }

            @Override
            public Void apply(Channel<?> channel, Object message) {
                return h.apply(channel, message);
            }

            @Override
            public Object tryApply(Channel<?> channel, Object message) {
                return h.tryApply(channel, message);
            }

            @Override
            public boolean hasTimeoutCase() {
                return false;
            }

            @Override
            public Void onTimeout() {
                return h.onTimeout();
            }

            @Override
            public Receive<Object, Void> orElse(Receive<? super Object, ? extends Void> other) {
                return h.orElse(other);
            }
        };
        assertFalse(custom.matchesOnlyWhere(custom));
        assertFalse(h.matchesOnlyWhere(custom));
    }

    @Test
    void signalsAreMatchedOnTheMainChannelWhateverItsType() {
        Receive<String, Void> h = Receive.<String>handler()
                .match(String.class, s -> { })
                .onSignal(Terminated.class, t -> { })
                .build();
        assertTrue(h.isDefinedAt(null, new Terminated(null, null)));
        assertFalse(h.isDefinedAt(null, new Exit(null, null)));
    }
}
