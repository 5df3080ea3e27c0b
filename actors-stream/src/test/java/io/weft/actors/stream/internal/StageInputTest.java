package io.weft.actors.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link StageInput}: the counted-down room of conditional offers, and the feeders' lanes. */
class StageInputTest {

    @Test
    void aConditionalOfferIntoAnSpscQueueNeverPassesItsLimitWhileCountingDownItsRoom() {
        StageInput<Integer> in = new StageInput<>(16, 1, true);
        for (int i = 0; i < 4; i++) {
            assertTrue(in.offerIfBelow(i, 4), "offer " + i);
        }
        assertFalse(in.offerIfBelow(4, 4), "the queue holds 4");
        assertEquals(0, in.poll());
        assertEquals(1, in.poll());
        assertTrue(in.offerIfBelow(5, 4));
        assertTrue(in.offerIfBelow(6, 4));
        assertFalse(in.offerIfBelow(7, 4), "the room seen after the polls is used up");
        assertEquals(4, in.size());
        assertFalse(in.offerIfBelow(7, 2), "a lower limit is checked against the length at once");
        assertTrue(in.offerIfBelow(7, 6));
        assertTrue(in.offerIfBelow(8, 6));
        assertFalse(in.offerIfBelow(9, 6));
        assertEquals(6, in.size());
    }

    @Test
    void aLowerLimitIsNotServedFromRoomCountedForAHigherOne() {
        StageInput<Integer> in = new StageInput<>(16, 1, true);
        assertTrue(in.offerIfBelow(0, 8)); // room counted for 8: 7 left
        assertTrue(in.offerIfBelow(1, 2));
        assertFalse(in.offerIfBelow(2, 2), "the queue holds 2");
        assertEquals(2, in.size());
    }

    @Test
    void aClosedLaneIsRemovedOnlyOnceDrainedAndHoldsUpTheEndOfStreamUntilThen() {
        StageInput<Integer> in = new StageInput<>(8, 1, false);
        StageInput.Lane<Integer> lane = in.addLane();
        assertTrue(lane.queue.offer(1));
        in.producerDone();
        assertFalse(in.endOfStream(), "the lane is open");
        lane.closed = true;
        in.removeClosedLanes();
        assertTrue(in.hasLanes(), "closed but not drained");
        assertFalse(in.endOfStream());
        assertEquals(1, in.poll());
        assertNull(in.poll());
        assertTrue(in.endOfStream(), "closed and drained: removed, and nothing else can arrive");
        assertFalse(in.hasLanes());
    }
}
