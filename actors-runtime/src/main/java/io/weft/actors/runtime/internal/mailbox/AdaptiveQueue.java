package io.weft.actors.runtime.internal.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.MessagePassingQueue;

/**
 * The unbounded mailbox (the default; {@code -Dweft.mailbox=linked} opts out for JCTools' linked
 * queue): an MPSC queue that is a linked queue while it is short and has one
 * producer at a time (48 bytes empty, as JCTools' unpadded linked queue), and a chunked array queue
 * ({@link ChunkedForm}: no node per message, producer and consumer indices on different cache
 * lines) while a backlog builds or several producers send at once. It returns to the linked form
 * once the consumer has found the chunked one empty on 32 polls, or at once when the owner goes
 * idle with the queue empty ({@link #idle}).
 */
public final class AdaptiveQueue extends PollOfferQueue {

    /* design
     * One word, `tail`, says which form producers use: a Node (the last node of the linked form)
     * or a ChunkedForm. Every producer reads it first, so the form change is one CAS on it and a
     * producer can never put an item into a form that the consumer has already left.
     *
     * Linked form (the MPSC linked list of JCTools' MpscLinkedQueue, with a CAS in place of its
     * exchange so that a producer can see the form change): a producer CASes tail from the node `prev` it read to its
     * new node n (n.seq = prev.seq + 1), then links prev.next = n with release. The consumer holds
     * `head`, the last node it took (its value already null), and takes head.next.
     *
     * The consumer's form is `head` itself: a Node in the linked form, the ChunkedForm it takes
     * from in the chunked form. A poll reads only `head` and the form it names, never `tail`,
     * except at the end of the linked nodes (below): tail is the word every producer reads and
     * CASes, and a poll that stays on the consumer's own fields and the form's consumer line
     * leaves that line to the producers.
     *
     * The offer path: the first try (one CAS on the linked form, one claim on the chunked form)
     * is inline in offer(), every retry in offerSlow(), so that offer() stays small enough for
     * the JIT to inline into a sender's loop (with the retries inline, C2 refused it in some of
     * the Savina count sender's compilations, "callee is too large", a call per message).
     *
     * Linked -> chunked, by a producer: after CONTENDED failed CASes within CHECK_EVERY nodes
     * (several producers at once; a count over the queue's whole life would switch a long-lived
     * mailbox at its eighth collision, however rare its collisions are) or
     * when a producer's node is BACKLOG or more ahead of the consumer's (checked every CHECK_EVERY
     * nodes, from the seq numbers), it CASes tail from the last node L to a new ChunkedForm F with
     * F.linkedEnd = L. Producers that then read tail queue into F. The consumer takes the linked
     * nodes up to L (a link not yet stored makes relaxedPoll return null, as in any linked MPSC
     * queue), and on finding head == L with tail == F it sets head = F and takes from F.
     *
     * Chunked -> linked, by the consumer only: when F is empty, has carried at least
     * SWITCH_BACK_AFTER items (so that one form's ~800 bytes are paid by at least that many items,
     * against a 24-byte node per item) and SWITCH_BACK_EMPTY of the consumer's polls found no item
     * in it (hysteresis: a consumer slower than its producer empties F at the end of many drains,
     * and switching at the first of them allocated a form per catch-up; the count only delays the
     * close, which stays the same step, so the arguments below hold for any count; an actor that
     * goes idle before the count gives F back at its idle transition, below), it closes F
     * (ChunkedForm's design block: no claimed index is outstanding, every later claim fails), sets
     * head = S (F.successor, a fresh stub) and CASes tail from F to S. A producer whose claim on F
     * failed helps with the same CAS and then queues on S, so no producer waits for the consumer's
     * CAS.
     *
     * Give-back at the idle transition (idle(), called by the cell's owner at the end of a turn
     * that leaves every queue empty, before its idle store and re-check, Cell I2): if head is a
     * chunked form F and F is empty, the same two steps as above (leaveChunked, then the CAS of
     * tail from F to S), without the counts. The counts guard a consumer that empties F in the
     * middle of a stream; at the idle transition the alternative is keeping F (about 800 bytes with
     * its chunk: 921-947 B per idle actor against 147-149 B with the give-back, `memory --burst
     * 600`, docs/benchmarks.md) for as long as the actor stays idle, which for an actor idle after
     * a burst is for ever, since no later poll comes to complete the counts. It is the same close
     * by the same thread (the owner is the only consumer while it holds the activation), so the
     * arguments below hold unchanged: a producer whose claim beat the close makes it fail (F stays,
     * and the owner's re-check finds the item), one whose claim came after it queues on S. The cost
     * is one read of head when the queue is linked (the common idle transition), and for a consumer
     * that catches up with its producer and goes idle, a new chunked form at the next backlog or
     * contention; the alternatives, give-back only after K idle transitions in a row (which never
     * comes for an actor that goes idle once) or a sweep of idle actors by a timer (a second thread
     * that would need the consumer's role), are not used. Measured against the counts alone
     * (docs/benchmarks.md, the mailbox bullets): no Savina workload and no ingress slower at
     * p < 0.05; a form per catch-up is rare in practice (the several-producer ingress made 46 forms
     * in a run with the give-back and 49 without, Savina count 27 and 25; fjthrput, the one that
     * churns, 7,248 and 1,627 in 25 runs, about 225 more forms of 800 bytes per run).
     *
     * No loss, no duplicate: an item is stored in exactly one form: in the linked form by a
     * successful CAS (before L, since L's CAS precedes F's), or in F by a successful claim, which
     * precedes F's close. FIFO per producer: a producer's items go into forms in the order the
     * forms follow each other, and the consumer takes a form only after the one before it is
     * empty (the linked nodes up to L before F; F closes only when empty, before S). The jcstress
     * test AdaptiveQueueTests runs producers across both switches and the idle give-back.
     *
     * isEmpty(), exact for the consumer (the owner's re-check of Cell I2): tail is read volatile;
     * a Node tail means empty iff it is head; a ChunkedForm tail F means empty iff head is F or
     * F's linkedEnd (the consumer is past the linked nodes) and F's pIndex (volatile) equals its
     * cIndex. Every offer ends with a CAS or an atomic add (a full fence) before the sender reads
     * the activation word, so an owner that writes the word and then calls isEmpty() sees every
     * offer that the sender's read missed.
     *
     * The switch back seen from other threads: between the consumer's head = S and tail's CAS
     * from F to S, a reader sees head S (seq 0) with tail F; F is closed and empty then and no
     * item is on S yet (producers queue on S only after tail names it), so isEmpty() is true and
     * size() 0 when head is F's successor (without that test size() read F.linkedEnd.seq, 256 or
     * more, on an empty queue). Likewise head F with tail S (a producer helped the CAS before the
     * consumer's head store, or head was read before both) is empty: no CAS has moved tail past S.
     *
     * size() is the difference of seq numbers (linked) plus the chunked form's index difference:
     * constant time, approximate from other threads than the consumer, exact for the consumer
     * apart from offers in flight.
     */

    /**
     * Failed CASes of the linked form's producers within CHECK_EVERY nodes after which they switch
     * to the chunked form.
     */
    static final int CONTENDED = 8;

    /**
     * Items ahead of the consumer at which a producer switches to the chunked form
     * ({@code -Dweft.mailbox.backlog=N}, default 256; 0 switches on contention only).
     */
    static final int BACKLOG = positiveOrNever(Integer.getInteger("weft.mailbox.backlog", 256));

    /**
     * Items the chunked form must have carried before the consumer switches back to the linked
     * form when it drains it ({@code -Dweft.mailbox.switchBackAfter=N}, default 128).
     */
    static final long SWITCH_BACK_AFTER = Long.getLong("weft.mailbox.switchBackAfter", ChunkedForm.CHUNK);

    /**
     * Polls that must have found the chunked form empty before the consumer switches back to the
     * linked form ({@code -Dweft.mailbox.switchBackEmpty=N}, default 32; 1 switches at the first).
     */
    static final int SWITCH_BACK_EMPTY = Math.max(1, Integer.getInteger("weft.mailbox.switchBackEmpty", 32));

    /**
     * Whether the owner's idle transition gives the chunked form back ({@link #idle};
     * {@code -Dweft.mailbox.idleGiveBack=false} keeps it until the counts above are met).
     */
    static final boolean IDLE_GIVE_BACK = !"false".equals(System.getProperty("weft.mailbox.idleGiveBack"));

    /** A producer checks the backlog when its node's seq is a multiple of this (a power of two). */
    static final int CHECK_EVERY = 64;

    private static int positiveOrNever(int n) {
        return n > 0 ? n : Integer.MAX_VALUE;
    }

    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(AdaptiveQueue.class, "tail", Object.class);
            HEAD = l.findVarHandle(AdaptiveQueue.class, "head", Object.class);
            NEXT = l.findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A node of the linked form; 24 bytes with compressed references, as JCTools' node. */
    static final class Node {
        Object value;
        @SuppressWarnings("unused") // through NEXT
        volatile Node next;
        /** Position in the linked form (prev.seq + 1), for size() and the backlog check. */
        int seq;

        Node(Object value, int seq) {
            this.value = value;
            this.seq = seq;
        }
    }

    /** The linked form's last node, or the chunked form producers queue into. */
    @SuppressWarnings("unused") // through TAIL
    private volatile Object tail;

    /**
     * The consumer's form: its last taken node (linked form) or the ChunkedForm it takes from, so
     * that a poll does not read tail.
     */
    private Object head;

    /**
     * Failed CASes of linked-form producers since the last CHECK_EVERY-th node, counted without
     * synchronization (a heuristic).
     */
    private int contention;

    /** An empty queue in the linked form. */
    public AdaptiveQueue() {
        Node stub = new Node(null, 0);
        this.head = stub;
        this.tail = stub;
    }

    Object lvTail() {
        return TAIL.getVolatile(this);
    }

    private Object caeTail(Object expected, Object next) {
        return TAIL.compareAndExchange(this, expected, next);
    }

    private void casTail(Object expected, Object next) {
        TAIL.compareAndSet(this, expected, next);
    }

    private Object laHead() {
        return HEAD.getAcquire(this);
    }

    private void soHead(Object form) {
        HEAD.setRelease(this, form);
    }

    private static Node laNext(Node node) {
        return (Node) NEXT.getAcquire(node);
    }

    private static void soNext(Node node, Node next) {
        NEXT.setRelease(node, next);
    }

    /**
     * Whether the producers queue into the chunked form now (for tests and diagnostics).
     *
     * @return true in the chunked form
     */
    public boolean isChunked() {
        return lvTail() instanceof ChunkedForm;
    }

    @Override
    public boolean offer(Object item) {
        if (item == null) {
            throw new NullPointerException("item");
        }
        // the first try of either form inline; every retry (a failed CAS, a closed form) in offerSlow,
        // which keeps this method small enough for the JIT to inline into a sender's loop
        Object t = lvTail();
        if (t instanceof ChunkedForm f) {
            if (f.offer(item)) {
                return true;
            }
            return offerSlow(item, reopened(f), null);
        }
        Node prev = (Node) t;
        Node n = new Node(item, prev.seq + 1);
        Object witness = caeTail(prev, n);
        if (witness != prev) {
            return offerSlow(item, contended(witness), n);
        }
        soNext(prev, n);
        if ((n.seq & (CHECK_EVERY - 1)) == 0) {
            checkBacklog(n);
        }
        return true;
    }

    /** The retry loop of {@link #offer}, from the tail {@code t}; {@code n} is a node made before, if any. */
    private boolean offerSlow(Object item, Object t, Node n) {
        while (true) {
            if (t instanceof Node prev) {
                if (n == null) {
                    n = new Node(item, 0);
                }
                n.seq = prev.seq + 1;
                Object witness = caeTail(prev, n);
                if (witness == prev) {
                    soNext(prev, n);
                    if ((n.seq & (CHECK_EVERY - 1)) == 0) {
                        checkBacklog(n);
                    }
                    return true;
                }
                t = contended(witness);
            } else {
                ChunkedForm f = (ChunkedForm) t;
                if (f.offer(item)) {
                    return true;
                }
                t = reopened(f);
            }
        }
    }

    /**
     * A linked-form CAS failed against {@code witness}: count it, and switch after CONTENDED;
     * returns the tail to retry on.
     */
    Object contended(Object witness) {
        if (witness instanceof Node last && ++contention >= CONTENDED) {
            contention = 0;
            return toChunked(last);
        }
        return witness;
    }

    /**
     * Every CHECK_EVERY-th node: restarts the contention count and switches to the chunked form
     * if {@code last} is still the tail and BACKLOG items wait.
     */
    private void checkBacklog(Node last) {
        contention = 0;
        if (laHead() instanceof Node h && last.seq - h.seq >= BACKLOG) {
            toChunked(last);
        }
    }

    /** CASes tail from {@code last} to a new chunked form; returns the tail after it. */
    private Object toChunked(Node last) {
        ChunkedForm f = new ChunkedForm(last);
        Object witness = caeTail(last, f);
        return witness == last ? f : witness;
    }

    /** {@code f} was closed by the consumer: swing tail to its successor (helping) and re-read. */
    private Object reopened(ChunkedForm f) {
        casTail(f, f.successor());
        return lvTail();
    }

    @Override
    public Object relaxedPoll() {
        Object h = head;
        if (h instanceof ChunkedForm f) {
            Object item = f.relaxedPoll();
            return item != null ? item : emptyChunked(f);
        }
        Node last = (Node) h;
        Node n = laNext(last);
        if (n != null) {
            Object item = n.value;
            n.value = null;
            soHead(n);
            return item;
        }
        ChunkedForm f = chunkedAfter(last);
        if (f == null) {
            return null;
        }
        soHead(f);
        Object item = f.relaxedPoll();
        return item != null ? item : emptyChunked(f);
    }

    /** The chunked form that follows the linked node {@code h}, if h is its linkedEnd. */
    private ChunkedForm chunkedAfter(Node h) {
        return lvTail() instanceof ChunkedForm f && f.linkedEnd == h ? f : null;
    }

    /**
     * A poll found no item in {@code f}, the consumer's form: counts it and switches back to the
     * linked form when the design block's conditions hold; returns null.
     */
    private Object emptyChunked(ChunkedForm f) {
        if (f.emptyPoll() >= SWITCH_BACK_EMPTY && f.taken() >= SWITCH_BACK_AFTER && f.isEmpty() && leaveChunked(f)) {
            casTail(f, f.successor());
        }
        return null;
    }

    /**
     * The consumer's end of a turn that leaves the queue empty (the owner, before it gives the
     * activation up): gives the chunked form back, as {@link #relaxedPoll}'s switch back does but
     * without its counts, so that an actor idle after a burst keeps the 48-byte linked form and
     * not the chunked one (design block, "Give-back at the idle transition"). Does nothing in the
     * linked form, with {@code -Dweft.mailbox.idleGiveBack=false}, or if a producer has claimed a
     * slot (the owner's re-check then finds the item and runs another turn). Also does nothing
     * while the consumer has not yet reached a chunked form that a producer just installed: a
     * producer's backlog check can install it as tail after the owner drained, so head is still
     * the last linked node and tail an empty chunked form; that form is given back at a later idle
     * transition (after the consumer's next poll has moved head onto it). Memory only: no item is
     * lost or reordered.
     */
    public void idle() {
        if (IDLE_GIVE_BACK && head instanceof ChunkedForm f && f.isEmpty() && leaveChunked(f)) {
            casTail(f, f.successor());
        }
    }

    /**
     * The consumer's first half of the switch back: closes {@code f} if it is empty and moves head
     * to its successor, a fresh stub; tail still names {@code f} until the caller's CAS (or a
     * producer's, helping). Package private so that a test can hold the queue between the halves.
     *
     * @return whether {@code f} closed (then the caller CASes tail from it to its successor)
     */
    boolean leaveChunked(ChunkedForm f) {
        Node stub = new Node(null, 0);
        if (!f.closeIfEmpty(stub)) {
            return false;
        }
        soHead(stub);
        return true;
    }

    @Override
    public Object relaxedPeek() {
        Object h = head;
        if (h instanceof ChunkedForm f) {
            return f.relaxedPeek();
        }
        Node last = (Node) h;
        Node n = laNext(last);
        if (n != null) {
            return n.value;
        }
        ChunkedForm f = chunkedAfter(last);
        return f == null ? null : f.relaxedPeek();
    }

    @Override
    public boolean isEmpty() {
        Object h = laHead();
        Object t = lvTail();
        if (t instanceof Node) {
            // h a closed form whose successor is still the tail: the switch back is half done
            return t == h || h instanceof ChunkedForm hf && hf.successor() == t;
        }
        ChunkedForm f = (ChunkedForm) t;
        if (h == f.successor()) {
            return true; // the consumer closed f empty and left it; tail moves to h next
        }
        if (h != f && h != f.linkedEnd) {
            return false;
        }
        return f.isEmpty();
    }

    @Override
    public int size() {
        Object h = laHead();
        Object t = lvTail();
        long n;
        if (t instanceof Node last) {
            n = h instanceof Node first ? last.seq - first.seq : 0;
        } else {
            ChunkedForm f = (ChunkedForm) t;
            if (h == f.successor()) {
                return 0; // the switch back is half done: f is closed and empty (isEmpty)
            }
            n = (h instanceof Node first ? f.linkedEnd.seq - first.seq : 0) + f.size();
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, n));
    }

    @Override
    public Object poll() {
        Object item;
        while ((item = relaxedPoll()) == null) {
            if (isEmpty()) {
                return null;
            }
            Thread.onSpinWait();
        }
        return item;
    }

    @Override
    public Object peek() {
        Object item;
        while ((item = relaxedPeek()) == null) {
            if (isEmpty()) {
                return null;
            }
            Thread.onSpinWait();
        }
        return item;
    }

    @Override
    public int capacity() {
        return UNBOUNDED_CAPACITY;
    }

    @Override
    public boolean relaxedOffer(Object item) {
        return offer(item);
    }
}
