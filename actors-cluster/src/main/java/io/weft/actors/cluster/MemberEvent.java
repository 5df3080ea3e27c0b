package io.weft.actors.cluster;

import java.util.Objects;

/**
 * A member changed state, as seen by the node that publishes the event.
 *
 * @param member the member
 * @param status its new state
 * @param reason why, for logs and diagnosis
 */
public record MemberEvent(Member member, MemberStatus status, String reason) {

    /**
     * Checks the fields.
     *
     * @param member the member
     * @param status the state
     * @param reason the reason
     */
    public MemberEvent {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
    }
}
