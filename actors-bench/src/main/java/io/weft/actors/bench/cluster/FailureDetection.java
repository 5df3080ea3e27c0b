package io.weft.actors.bench.cluster;

import java.time.Duration;

/**
 * The failure-detection timings both implementations get, as far as their knobs match: a
 * heartbeat every {@link #HEARTBEAT}, a member silent for {@link #TIMEOUT} suspected (Weft:
 * FD_ALL3's timeout, then VERIFY_SUSPECT2 for {@link #VERIFY}; Pekko: the phi-accrual detector's
 * acceptable heartbeat pause), and the split-brain rule (keep-majority on both) deciding on a
 * membership stable for {@link #STABLE_AFTER}.
 */
final class FailureDetection {

    /** Heartbeat interval. */
    static final Duration HEARTBEAT = Duration.ofMillis(500);

    /** Silence after which a member is suspected (Pekko: acceptable heartbeat pause). */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    /** Weft only: how long a suspicion is verified before the member is excluded. */
    static final Duration VERIFY = Duration.ofSeconds(1);

    /** Weft only: the longest interval between merge checks. */
    static final Duration MERGE = Duration.ofSeconds(5);

    /** The split-brain rule's stability window. */
    static final Duration STABLE_AFTER = Duration.ofSeconds(3);

    private FailureDetection() {
    }

    /**
     * A one-line description for the bench's header.
     *
     * @return the timings
     */
    static String describe() {
        return "heartbeat " + HEARTBEAT.toMillis() + " ms, suspect after " + TIMEOUT.toMillis() + " ms silent, keep-majority stable after "
                + STABLE_AFTER.toMillis() + " ms (Weft also: verify " + VERIFY.toMillis() + " ms)";
    }
}
