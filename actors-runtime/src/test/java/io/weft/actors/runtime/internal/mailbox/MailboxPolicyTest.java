package io.weft.actors.runtime.internal.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.Mailbox;
import java.util.ArrayList;
import java.util.List;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import org.junit.jupiter.api.Test;

/**
 * The unbounded mailbox kind: {@link AdaptiveQueue} by default, JCTools' linked queue with the
 * opt-out {@code -Dweft.mailbox=linked} (the surefire execution {@code linked-mailbox} runs this
 * test and the contract suites with it), for actors' mailboxes and for opened channels alike; an
 * unknown value keeps the default and is reported at WARN.
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

    @Test
    void anUnknownMailboxKindKeepsTheDefaultAndIsLoggedOnceNamingTheAcceptedValues() {
        List<String> warnings = new ArrayList<>();
        assertTrue(MailboxPolicy.adaptive(null, warnings::add));
        assertTrue(MailboxPolicy.adaptive("adaptive", warnings::add));
        assertFalse(MailboxPolicy.adaptive("linked", warnings::add));
        assertEquals(List.of(), warnings);
        assertTrue(MailboxPolicy.adaptive("chunked", warnings::add));
        assertEquals(1, warnings.size(), warnings.toString());
        String w = warnings.get(0);
        assertTrue(w.contains("weft.mailbox=chunked") && w.contains("adaptive") && w.contains("linked"), w);
    }
}
