package io.weft.actors.remote.transport;

/**
 * The three independent streams of frames between two systems. Frames on one lane arrive in the
 * order they were sent; frames on different lanes are not ordered with each other, and a slow or
 * large frame on one lane never holds up another lane.
 */
public enum Lane {
    /** Watch, unwatch, terminated, handshakes and heartbeats: small, few, resent until acknowledged. */
    CONTROL,
    /** Ordinary user messages, many batched per frame. */
    ORDINARY,
    /** User messages above the large-message threshold, one per frame. */
    LARGE
}
