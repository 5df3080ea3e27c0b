package io.weft.actors;

/**
 * What an actor does with a message that its current handler does not match.
 *
 * <ul>
 *   <li>{@link Mode#KEEP} (the default): selective receive as in Haller and Odersky 2009, §3.2.
 *       The message is kept, in arrival order, and offered again when a handler that may match it
 *       is installed. Kept messages count in {@link SystemMetrics#mailboxDepth(ActorRef)} and
 *       {@link SystemMetrics#keptMessages()}. At most {@link #maxKept()} are kept: beyond that the
 *       oldest kept message goes to dead letters with {@link DeadLetter.Reason#UNHANDLED}. A
 *       warning naming the actor is logged when its kept count first reaches a tenth of the bound
 *       (at most 1,000), again only after its kept messages were all taken, and at most one such
 *       warning a second per system.
 *   <li>{@link Mode#DEAD_LETTER}: Pekko's {@code unhandled}. A message the current handler does not
 *       match goes to dead letters at once with {@link DeadLetter.Reason#UNHANDLED}; nothing is kept.
 * </ul>
 *
 * <pre>{@code
 * Props.named("orders").withMaxKept(500);             // keep at most 500 unmatched messages
 * Props.named("events").withUnhandledToDeadLetters(); // Pekko's behaviour
 * }</pre>
 *
 * @param mode keep or dead-letter unmatched messages
 * @param maxKept the most messages kept at once, at least 1 ({@link Mode#KEEP}); ignored for
 *     {@link Mode#DEAD_LETTER}
 */
public record Unhandled(Mode mode, int maxKept) {

    /** The default bound of kept messages per actor: {@value}. */
    public static final int DEFAULT_MAX_KEPT = 10_000;

    /** What happens to a message no case of the current handler matches. */
    public enum Mode {
        /** Keep it for a later handler (selective receive), up to the bound. */
        KEEP,
        /** Send it to dead letters at once (Pekko's {@code unhandled}). */
        DEAD_LETTER
    }

    /**
     * Validates.
     *
     * @param mode not null
     * @param maxKept at least 1
     * @throws IllegalArgumentException if {@code maxKept} is less than 1
     */
    public Unhandled {
        java.util.Objects.requireNonNull(mode, "mode");
        if (maxKept < 1) {
            throw new IllegalArgumentException("maxKept: must be at least 1, was " + maxKept
                    + " (the number of unmatched messages an actor keeps for selective receive;"
                    + " to keep none, send them to dead letters with Unhandled.deadLetter())");
        }
    }

    /**
     * Selective receive with a bound.
     *
     * @param maxKept the most messages kept at once, at least 1
     * @return the policy
     * @throws IllegalArgumentException if {@code maxKept} is less than 1
     */
    public static Unhandled keep(int maxKept) {
        return new Unhandled(Mode.KEEP, maxKept);
    }

    /** @return the policy that sends unmatched messages to dead letters at once (Pekko's) */
    public static Unhandled deadLetter() {
        return new Unhandled(Mode.DEAD_LETTER, 1);
    }

    /** @return whether unmatched messages are kept */
    public boolean keeps() {
        return mode == Mode.KEEP;
    }
}
