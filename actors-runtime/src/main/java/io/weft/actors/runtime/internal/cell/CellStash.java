package io.weft.actors.runtime.internal.cell;

import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.Receive;
import io.weft.actors.Unhandled;
import io.weft.actors.spi.Scheduler;
import java.util.ArrayDeque;

/**
 * The kept messages of an actor cell (owner only): the stash of selective receive, its bound, its
 * count for metrics, the warning when it grows, Pekko's dead-letter mode, and when the stash must
 * be searched again.
 *
 * @param <M> the main channel's message type
 */
abstract class CellStash<M> extends CellSending<M> {

    /* design
     * Selective receive (Haller and Odersky 2009, §3.2): a message the current handler does not
     * match is kept, in arrival order, in the stash (Extras.stash); a handler that is installed
     * later is offered the kept messages first, oldest first. Synchronization constraints and
     * guards (Karmani et al. 2009, §4.2) use the same stash.
     *
     * When the stash is searched again (the rescan invariant):
     *   K1: `stashCheckedWith` = C means no kept message was matched by C when last offered to it.
     *       It holds trivially for an empty stash; a full search by K that finds nothing sets it to
     *       K; removing a kept message keeps it; keeping a message that K declined keeps C if C
     *       matches only where K does (C.matchesOnlyWhere(K)), becomes K if K matches only where C
     *       does, and is cleared otherwise.
     *   K2: a handler without guards matches by the message's class and channel alone, fixed per
     *       Receive object (Cases), so a message it declined once it declines forever. Hence a
     *       kept message can match the current continuation K only if K does not match "only
     *       where C does" (Receive.matchesOnlyWhere): the stash is searched again (stashDirty) only
     *       when a continuation is installed for which that fails (react, become or receive with a
     *       handler that matches more, or has guards), and after a become handler with guards
     *       handled a message (its guards read state the handler may have changed). A new message
     *       is tried by itself. So with N kept messages and a guard-free handler, a matching
     *       message costs what it costs with none (docs/benchmarks.md, "unhandled backlog"); a
     *       guarded become handler pays a search of the stash per handled message.
     *   K3: at most maxKept are kept (Unhandled, from Props, ActorContext.unhandled or the system
     *       default); keeping one more sends the oldest to dead letters (UNHANDLED). In
     *       DEAD_LETTER mode (Pekko's unhandled) nothing is kept: an unmatched message is a dead
     *       letter at once.
     *   K4: `kept` (volatile, written by the owner) is the stash's size, for mailboxDepth read from
     *       other threads; the system's kept counter moves with every keep and removal. A warning
     *       names the actor when its stash first reaches warnThreshold; it is re-armed when the
     *       stash empties, so it is logged once per growth, not per message, and the system logs
     *       at most one such warning a second (the next one counts the others). The receive that
     *       reaches the threshold only checks the rate limit and hands a KeptWarning (the actor,
     *       the count, the bound, the oldest kept message's class) to another thread, which
     *       builds the text and logs it (CellHost.warnRateLimited): in a cold JVM the text and
     *       the log's first call took 13-57 ms of that receive (docs/benchmarks.md, "Selective
     *       receive and mode switches").
     */

    CellStash(long id, CellHost system, String name, Mailbox mailbox, Scheduler scheduler, Behavior<M> behavior, boolean threadMode) {
        super(id, system, name, mailbox, scheduler, behavior, threadMode);
    }

    /** @return this actor's policy for unmatched messages: its own, else the system's default */
    Unhandled unhandledPolicy() {
        Extras x = extras;
        Unhandled u = x == null ? null : x.unhandled;
        return u != null ? u : system.settings().unhandled();
    }

    /** @return the stash size at which the growth warning is logged: a tenth of the bound, at most 1,000 */
    static int warnThreshold(Unhandled u) {
        return Math.max(1, Math.min(1_000, u.maxKept() / 10));
    }

    /**
     * The handler {@code k} declined {@code item}: keep it (K1, K3, K4), or in DEAD_LETTER mode
     * send it to dead letters.
     */
    void keep(ChannelQueue<?> on, Object item, Receive<?, ?> k) {
        Unhandled u = unhandledPolicy();
        if (!u.keeps()) {
            deadLetter(item, DeadLetter.Reason.UNHANDLED);
            return;
        }
        Extras x = extras();
        ArrayDeque<Object[]> s = x.stash;
        if (s == null) {
            s = new ArrayDeque<>();
            x.stash = s;
        }
        Receive<?, ?> c = x.stashCheckedWith;
        if (s.isEmpty()) {
            checked(x, k);
        } else if (c == k) {
            if (!x.stashCheckedFixed) {
                checked(x, null); // a guarded handler may decline now what it matches later
            }
        } else if (c != null && !c.matchesOnlyWhere(k)) {
            checked(x, k.matchesOnlyWhere(c) ? k : null);
        }
        s.addLast(new Object[] {on, item});
        system.keptChanged(1);
        if (s.size() > u.maxKept()) {
            Object[] oldest = s.pollFirst();
            system.keptChanged(-1);
            deadLetter(oldest[1], DeadLetter.Reason.UNHANDLED);
        }
        int n = s.size();
        x.kept = n;
        if (!x.keptWarned && n >= warnThreshold(u)) {
            x.keptWarned = true;
            system.warnRateLimited(new KeptWarning(ref, n, u.maxKept(), oldestClass(s.peekFirst()[1])));
        }
    }

    /** @return the class of a kept message (unwrapped from its envelope), or null for null */
    static Class<?> oldestClass(Object item) {
        Object m = io.weft.actors.runtime.internal.mailbox.Envelope.unwrap(item);
        return m == null ? null : m.getClass();
    }

    /**
     * The warning of K4, its text built on another thread (CellHost.warnRateLimited):
     * the receive that keeps the threshold's message pays no string building and no log call.
     */
    private static final class KeptWarning implements java.util.function.Supplier<String> {
        private final Object actor;
        private final int kept;
        private final int bound;
        private final Class<?> oldest;

        KeptWarning(Object actor, int kept, int bound, Class<?> oldest) {
            this.actor = actor;
            this.kept = kept;
            this.bound = bound;
            this.oldest = oldest;
        }

        /** Built with a StringBuilder: a {@code +} chain's first run links a call site, several ms in a cold JVM. */
        @Override
        public String get() {
            return new StringBuilder(256).append(actor).append(" keeps ").append(kept)
                    .append(" messages that no handler matched (bound ").append(bound)
                    .append(", beyond it the oldest go to dead letters as UNHANDLED); the oldest is ")
                    .append(oldest == null ? "null" : oldest.getName())
                    .append(". Match them, or spawn it with Props.withUnhandledToDeadLetters()").toString();
        }
    }

    /** A kept message was taken out of the stash (K4). */
    void unkept(Extras x) {
        system.keptChanged(-1);
        int n = x.stash.size();
        x.kept = n;
        if (n == 0) {
            x.keptWarned = false;
        }
    }

    /** All kept messages are gone (drained to dead letters or trimmed): the counts follow (K4). */
    void clearedKept(Extras x, int removed) {
        if (removed > 0) {
            system.keptChanged(-removed);
        }
        x.kept = x.stash == null ? 0 : x.stash.size();
        if (x.kept == 0) {
            x.keptWarned = false;
        }
    }

    /** Sets stashCheckedWith (K1) and whether it has no guard, so the common check below is two reads. */
    static void checked(Extras x, Receive<?, ?> k) {
        x.stashCheckedWith = k;
        x.stashCheckedFixed = k != null && k.matchesOnlyWhere(k);
    }

    /**
     * Whether the stash may hold a message {@code k} matches, and must be searched for it (K2).
     */
    static boolean mustSearch(Extras x, Receive<?, ?> k) {
        if (x == null || x.stash == null || x.stash.isEmpty()) {
            return false;
        }
        Receive<?, ?> c = x.stashCheckedWith;
        if (c == k && x.stashCheckedFixed) {
            return false; // a become handler without guards, after each of its messages
        }
        return c == null || k == null || !k.matchesOnlyWhere(c);
    }

    /**
     * Sets a new policy for unmatched messages and applies it to what is kept: DEAD_LETTER sends
     * every kept message to dead letters, a smaller bound the oldest beyond it (owner only).
     */
    void applyUnhandled(Unhandled policy) {
        Extras x = extras();
        x.unhandled = policy;
        ArrayDeque<Object[]> s = x.stash;
        if (s == null) {
            return;
        }
        int limit = policy.keeps() ? policy.maxKept() : 0;
        int removed = 0;
        while (s.size() > limit) {
            deadLetter(s.pollFirst()[1], DeadLetter.Reason.UNHANDLED);
            removed++;
        }
        clearedKept(x, removed);
    }
}
