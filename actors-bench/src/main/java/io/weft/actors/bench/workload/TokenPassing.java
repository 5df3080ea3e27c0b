package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pieces shared by the workloads that pass tokens between actors (token ring, pipes): a token
 * that counts its remaining passes, an actor that forwards it to a fixed next actor, and the count
 * of passes made once every token has retired.
 */
final class TokenPassing {

    private TokenPassing() {
    }

    /** A token with the passes it still has to make. */
    static final class Token {
        int remaining;

        Token(int remaining) {
            this.remaining = remaining;
        }
    }

    /** Forwards a token to {@link #next} until it has no passes left, then retires it. */
    static final class Forwarder implements Handler {
        private final Runnable retired;
        Ref next;

        Forwarder(Runnable retired) {
            this.retired = retired;
        }

        @Override
        public void onMessage(Object m, Ctx c) {
            if (m instanceof Token t) {
                if (--t.remaining == 0) {
                    retired.run();
                } else {
                    next.tell(t);
                }
            } else if (m == Workload.STOP) {
                c.stop();
            }
        }
    }

    /** Counts retired tokens; completes with the total passes when the last one retires. */
    static final class Tally {
        private final AtomicInteger left;
        private final AtomicLong total = new AtomicLong();
        private final int passesPerToken;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final Runnable retired = this::retire;

        Tally(int tokens, int passesPerToken) {
            this.left = new AtomicInteger(tokens);
            this.passesPerToken = passesPerToken;
        }

        private void retire() {
            total.addAndGet(passesPerToken);
            if (left.decrementAndGet() == 0) {
                done.complete(total.get());
            }
        }
    }
}
