package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Dead letters are logged at INFO, one line at once and then a count per second, and can be switched off. */
class DeadLetterLoggingTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(5 * SECOND);
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @Test
    void theFirstIsLoggedAtOnceAndTheRestOfTheSecondAsOneCountedLine() {
        DeadLetterOffice office = new DeadLetterOffice(true, now::get, lines::add);
        for (int i = 0; i < 13; i++) {
            office.publish("m" + i, null, null, DeadLetter.Reason.RECIPIENT_STOPPED);
            now.addAndGet(SECOND / 100);
        }
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("dead letter: java.lang.String to no one (RECIPIENT_STOPPED)"), lines.get(0));
        office.tick(); // 0.13 s into the window: nothing yet
        assertEquals(1, lines.size(), lines.toString());
        now.set(6 * SECOND);
        office.tick();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(1).startsWith("12 dead letters in the last second, first: java.lang.String to no one (RECIPIENT_STOPPED)"),
                lines.get(1));
        office.tick(); // the window is closed: nothing more
        assertEquals(2, lines.size());
        // a quiet period later, the next one is logged at once again
        now.addAndGet(10 * SECOND);
        office.publish(42, null, null, DeadLetter.Reason.UNHANDLED);
        assertEquals(3, lines.size());
        assertTrue(lines.get(2).startsWith("dead letter: java.lang.Integer to no one (UNHANDLED) [14 so far"), lines.get(2));
    }

    @Test
    void aDeadLetterAfterTheWindowLogsItsCountAndOpensTheNext() {
        DeadLetterOffice office = new DeadLetterOffice(true, now::get, lines::add);
        office.publish("a", null, null, DeadLetter.Reason.MAILBOX_OVERFLOW);
        office.publish("b", null, null, DeadLetter.Reason.MAILBOX_OVERFLOW);
        office.publish("c", null, null, DeadLetter.Reason.MAILBOX_OVERFLOW);
        now.addAndGet(SECOND);
        office.publish(1L, null, null, DeadLetter.Reason.MAILBOX_OVERFLOW);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(1).startsWith("2 dead letters in the last second, first: java.lang.String"), lines.get(1));
        office.flush(); // at close: the open window's count, whatever its age
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(2).startsWith("1 dead letter in the last second, first: java.lang.Long"), lines.get(2));
    }

    @Test
    void switchedOffNothingIsLoggedButEverythingIsCounted() {
        DeadLetterOffice office = new DeadLetterOffice(false, now::get, lines::add);
        for (int i = 0; i < 5; i++) {
            office.publish("m" + i, null, null, DeadLetter.Reason.SYSTEM_CLOSED);
            now.addAndGet(SECOND);
            office.tick();
        }
        office.flush();
        assertEquals(List.of(), lines);
        assertEquals(5, office.count());
    }

    @Test
    void theBuilderSwitchesTheSystemsLogging() {
        try (ActorSystem on = ActorSystem.builder().name("dl-on").build();
                ActorSystem off = ActorSystem.builder().name("dl-off").logDeadLetters(false).build()) {
            assertTrue(((WeftSystem) on).deadLetterOffice().isLogging());
            assertTrue(on.settings().logDeadLetters());
            assertFalse(((WeftSystem) off).deadLetterOffice().isLogging());
            assertFalse(off.settings().logDeadLetters());
        }
    }
}
