package io.weft.actors.runtime.internal.mailbox;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.weft.actors.Mailbox;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import org.junit.jupiter.api.Test;

/**
 * The unbounded mailbox kind: {@link AdaptiveQueue} by default, JCTools' linked queue with the
 * opt-out {@code -Dweft.mailbox=linked} (the surefire execution {@code linked-mailbox} runs this
 * test and the contract suites with it), for actors' mailboxes and for opened channels alike.
 */
class MailboxPolicyTest {

    @Test
    void unboundedMailboxIsAdaptiveUnlessLinkedIsChosen() {
        boolean linked = "linked".equals(System.getProperty("weft.mailbox"));
        MessagePassingQueue<Object> queue = MailboxPolicy.of(Mailbox.unbounded()).newQueue();
        MessagePassingQueue<Object> channel = MailboxPolicy.newQueueLike(queue);
        Class<?> expected = linked ? MpscLinkedAtomicUnpaddedQueue.class : AdaptiveQueue.class;
        assertInstanceOf(expected, queue, "weft.mailbox=" + System.getProperty("weft.mailbox"));
        assertInstanceOf(expected, channel, "weft.mailbox=" + System.getProperty("weft.mailbox"));
    }
}
