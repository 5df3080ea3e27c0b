package io.weft.actors.stream;

import io.weft.actors.stream.internal.StageAccess;
import io.weft.actors.stream.internal.StageFrame;

/**
 * The per-item loop of a stage's turn: poll, consume, count, look at the budget every
 * {@link StageAccess.Loop#ITEMS_PER_EVENT} items. This class is a template: {@link ConsumeLoops}
 * defines one hidden copy of it per stage class, so that the {@code consume} call below sees one
 * receiver class in each copy (a monomorphic call the JIT inlines) instead of every stage class
 * of the process at one shared call site.
 */
final class ConsumeLoop extends StageAccess.Loop {

    /* design
     * No static state: each hidden copy is a class of its own (its own profile), and the template
     * itself is the fallback when a copy cannot be defined. The loop is StageFrame's turn body
     * (its design block): the stop flag read before each item (a cancel is exact), the input
     * polled through StageInput (whose poll dispatches on the concrete queue classes, so that
     * site is monomorphic too), the budget asked every ITEMS_PER_EVENT items. The result packs
     * the items consumed with the reason the loop ended; a throwable from consume is handed to
     * the frame, which stops the network naming the stage (StageFrame, I4).
     */

    ConsumeLoop() {
    }

    @Override
    @SuppressWarnings("unchecked")
    protected long drain(StageFrame<?, ?> f, Stage<?, ?> s) {
        StageFrame<Object, ?> frame = (StageFrame<Object, ?>) f;
        Stage<Object, ?> stage = (Stage<Object, ?>) s;
        long n = 0;
        try {
            for (;;) {
                if (frame.stopRequested()) {
                    return n << 2 | STOPPED;
                }
                Object x = frame.pollInput();
                if (x == null) {
                    return n << 2 | EMPTY;
                }
                stage.consume(x);
                if ((++n & (ITEMS_PER_EVENT - 1)) == 0 && !frame.budgetLeft(n)) {
                    return n << 2 | BUDGET_USED;
                }
            }
        } catch (Throwable e) {
            frame.consumeFailed(e);
            return n << 2 | FAILED;
        }
    }
}
