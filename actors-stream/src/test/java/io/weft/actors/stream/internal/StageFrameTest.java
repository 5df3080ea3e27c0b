package io.weft.actors.stream.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.ForkJoinTask;
import org.junit.jupiter.api.Test;

class StageFrameTest {

    @Test
    void aStageFrameIsNeverPushedToThePoolAsItself() {
        // A pool work queue is ABA-safe only if no task object is pushed twice (FrameTask's design
        // block in the runtime): a frame is not a task, each push is a fresh FrameTask. The runtime's
        // ForkJoinOptimizationsTest checks the same for its own frames (Cell, SwitchCalibration.Probe).
        assertFalse(ForkJoinTask.class.isAssignableFrom(StageFrame.class), "StageFrame must not be pushed as itself");
    }
}
