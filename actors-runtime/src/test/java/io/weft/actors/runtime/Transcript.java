package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the actors of one test saw, in the order they saw it, and the signal that the last expected
 * message was handled: a test tells a sequence, its handlers {@link #add} what they see and call
 * {@link #finished} on the last message, and the test compares the whole transcript after
 * {@link #awaitFinished} (a generous await, never a timing assertion).
 */
final class Transcript {

    /** Entries in the order the handlers added them; read only after {@link #done} completes. */
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    /** Adds what a handler saw (any thread). */
    void add(String entry) {
        seen.add(entry);
    }

    /** The last expected message was handled: {@link #awaitFinished} returns. */
    void finished() {
        done.complete(null);
    }

    /** Waits until a handler called {@link #finished}; fails the test after {@link Probes#TIMEOUT_SECONDS}. */
    void awaitFinished() {
        await(done);
    }

    /** Waits for {@link #finished}, then checks the transcript. */
    void expect(List<String> expected) {
        awaitFinished();
        assertEquals(expected, seen);
    }

    /** Tells {@code messages} to {@code a} in order from this thread, then {@link #expect}s. */
    void tellInOrderAndExpect(ActorRef<String> a, List<String> messages, List<String> expected) {
        messages.forEach(a::tell);
        expect(expected);
    }
}
