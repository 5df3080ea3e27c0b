package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** ConsumeLoops: one hidden copy of the turn's loop per stage class, reused for that class. */
class ConsumeLoopsTest {

    static final class A extends Stage<Integer, Integer> {
        @Override
        protected void consume(Integer item) {
            emit(item);
        }
    }

    static final class B extends Stage<Integer, Void> {
        @Override
        protected void consume(Integer item) {
        }
    }

    @Test
    void eachStageClassGetsAHiddenCopyOfItsOwn() {
        Class<?> a = ConsumeLoops.of(A.class).getClass();
        Class<?> b = ConsumeLoops.of(B.class).getClass();
        assertTrue(a.isHidden(), "a copy, not the shared template: " + a);
        assertTrue(b.isHidden(), "a copy, not the shared template: " + b);
        assertNotSame(a, b, "two stage classes share one loop (one call-site profile)");
        assertSame(ConsumeLoops.of(A.class), ConsumeLoops.of(A.class), "one copy per stage class");
    }
}
