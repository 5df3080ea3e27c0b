package io.weft.actors.stream.internal;

import io.weft.actors.runtime.internal.ActivationWord;
import io.weft.actors.spi.Scheduler;

/** What producers read of a {@link StageFrame}, beside its activation word: written once. */
abstract class StageFrameHead<I> extends ActivationWord {
    /** The frame's input queues (their own fields are padded inside). */
    final StageInput<I> input;
    /** The scheduler that runs the frame. */
    final Scheduler scheduler;

    StageFrameHead(StageInput<I> input, Scheduler scheduler) {
        this.input = input;
        this.scheduler = scheduler;
    }
}

/**
 * Keeps a {@link StageFrame}'s activation word and the fields producers read off the cache line of
 * the owner-only state its turns write (on every emit, {@code unsignalled}; at the end of a turn,
 * {@code consumed}): padding by class hierarchy, as in JCTools.
 *
 * @param <I> the input type
 */
abstract class StageFramePad<I> extends StageFrameHead<I> {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    StageFramePad(StageInput<I> input, Scheduler scheduler) {
        super(input, scheduler);
    }
}
