package io.weft.actors.remote.internal.aeron;

import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The receiving side of the Aeron engine: images grouped into inbound links, reassembly, delivery. */
final class AeronInbound {

    /* design
     * A sender's link is three exclusive publications (one stream id per lane) sharing one session
     * id, so on this side its images share (source identity, session id): that pair is the key of
     * one InboundLink. Images come and go through the subscriptions' image handlers, which run on
     * the engine's poller thread (the Aeron client's conductor is invoked there), as does all of
     * this class except Link.close and the deliveries' drain tasks.
     *
     * Delivery: each (link, lane) has a Delivery, a queue of frames and events (a refusal, the
     * link's end) drained by one task at a time on the engine's executor (virtual threads), so a
     * handler that blocks holds up only its own lane of its own link, and no handler runs inside
     * an Aeron callback (where a call back into the transport, such as connect, would be refused
     * as reentrant, or wait for the poller itself). The one exception: for a lane whose handler
     * says nonBlocking, the first whole frame of a poll of its image, if at most INLINE_MAX_BYTES
     * long and its Delivery is empty and idle, is handled on the poller at once (Image.poll is not inside the conductor), saving
     * the hand-off to a virtual thread and its wake-up. A frame behind queued items is queued, so
     * order holds, and so are the other frames of a burst, so a stream of frames is still
     * decoded by the drain task while the poller reads on. The poller polls an image only while its
     * Delivery holds less than QUEUE_BUDGET bytes: a slow lane stops being read, its receiver
     * window stops moving, and Aeron's flow control pushes back on that publication alone.
     *
     * Reassembly (Reader.onFragment, after Aeron's FragmentAssembler): a message whose marker is
     * positive begins a frame of that many bytes; CONTINUATION messages complete it. A frame longer
     * than this side's maximum is refused once (onRefused) and its remaining messages skipped
     * without buffering; anything else out of order is a protocol error that closes the link.
     *
     * Ends: a link ends once (Link.end): all its images gone after end of stream (an orderly close
     * by the sender, cause null), any image gone without end of stream (the sender went silent
     * past the image liveness timeout, an IOException), a protocol error, close() here (its images
     * are rejected, so the sender gets an error frame and sees its link lost), or the engine's
     * close. An ended link's key stays refused while any of its images is still there (an image
     * that appears for it then is rejected too), and is forgotten when the last one is gone. Frames already queued when the sender closed orderly are still delivered
     * before onClosed; those of a link ended otherwise are dropped.
     */

    private static final Logger LOG = LoggerFactory.getLogger(AeronInbound.class);

    /** Bytes queued for a handler past which the poller stops reading that image. */
    static final long QUEUE_BUDGET = 4 << 20;

    private static final int FRAGMENT_LIMIT = 64;

    /** Frames up to this size may be handled on the poller; a bigger one is a batch, decoded on its drain task. */
    static final int INLINE_MAX_BYTES = 4096;

    private final InboundHandler handler;
    private final int maxFrameBytes;
    private final Executor executor;
    private final Map<String, Link> links = new HashMap<>();
    private final List<Reader> readers = new ArrayList<>();
    private final List<Link> open = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Image> toReject = new ConcurrentLinkedQueue<>();

    AeronInbound(InboundHandler handler, int maxFrameBytes, Executor executor) {
        this.handler = handler;
        this.maxFrameBytes = maxFrameBytes;
        this.executor = executor;
    }

    /** An image appeared (poller thread, inside an Aeron callback). */
    void onAvailable(Lane lane, Image image) {
        String key = image.sourceIdentity() + "/" + image.sessionId();
        Link link = links.get(key);
        if (link == null) {
            link = new Link(key, address(image.sourceIdentity()));
            links.put(key, link);
            open.add(link);
        }
        if (link.ended.get()) {
            toReject.add(image);
            return;
        }
        link.images.add(image);
        link.live++;
        readers.add(new Reader(link, lane, image));
    }

    /** An image went away (poller thread, inside an Aeron callback). */
    void onUnavailable(Image image) {
        Reader reader = null;
        for (int i = 0; i < readers.size(); i++) {
            if (readers.get(i).image == image) {
                reader = readers.remove(i);
                break;
            }
        }
        if (reader == null) {
            return;
        }
        Link link = reader.link;
        link.images.remove(image);
        link.live--;
        if (!image.isEndOfStream()) {
            link.end(new IOException("the sender at " + link.remote + " went silent on the " + reader.lane
                    + " lane past the peer timeout (AeronSettings.peerTimeout)"), true);
        } else if (link.live == 0) {
            link.end(null, false);
        }
        if (link.live == 0 && link.ended.get()) {
            links.remove(link.key);
        }
    }

    /**
     * One pass of the poller over the images: reads each whose delivery has room.
     *
     * @return the fragments read
     */
    int poll() {
        Image rejected;
        while ((rejected = toReject.poll()) != null) {
            reject(rejected, "link closed by the receiver");
        }
        int work = 0;
        for (int i = 0; i < readers.size(); i++) {
            Reader r = readers.get(i);
            if (r.link.ended.get() || r.delivery.bytes.get() >= QUEUE_BUDGET) {
                continue;
            }
            r.inlineLeft = 1;
            work += r.image.poll(r.assembler, FRAGMENT_LIMIT);
        }
        return work;
    }

    private static void reject(Image image, String reason) {
        try {
            if (!image.isClosed()) {
                image.reject(reason);
            }
        } catch (RuntimeException e) {
            LOG.debug("could not reject Aeron image {} of {}: {}", image.sessionId(), image.sourceIdentity(), e.toString());
        }
    }

    /** Ends every link (the engine's close). */
    void closeAll() {
        for (Link l : open) {
            l.end(null, true);
        }
    }

    private static SocketAddress address(String sourceIdentity) {
        int colon = sourceIdentity.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = sourceIdentity.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new InetSocketAddress(host, Integer.parseInt(sourceIdentity.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** One inbound link: the images of one AeronOutbound. */
    private final class Link implements InboundLink {
        private final String key;
        private final SocketAddress remote;
        private final List<Image> images = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();
        private final Delivery[] deliveries = new Delivery[Lane.values().length];
        private int live;

        Link(String key, SocketAddress remote) {
            this.key = key;
            this.remote = remote;
            for (Lane lane : Lane.values()) {
                deliveries[lane.ordinal()] = new Delivery(this, lane);
            }
        }

        @Override
        public SocketAddress remote() {
            return remote;
        }

        @Override
        public void close() {
            end(null, true);
        }

        /**
         * Ends the link once: each lane's delivery gets an end marker after what it holds, and the
         * last lane to reach it calls onClosed, so onClosed follows the link's frames and never runs
         * on the poller. With drop, the frames still queued are dropped and the images rejected.
         */
        void end(Throwable cause, boolean drop) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            open.remove(this);
            if (drop) {
                toReject.addAll(images);
            }
            AtomicInteger lanes = new AtomicInteger(deliveries.length);
            for (Delivery d : deliveries) {
                if (drop) {
                    d.dropped = true;
                }
                d.add(() -> {
                    if (lanes.decrementAndGet() == 0) {
                        handler.onClosed(this, cause);
                    }
                });
            }
        }

        @Override
        public String toString() {
            return "AeronInbound[" + key + "]";
        }
    }

    /**
     * What one lane of one link holds for the handler, in order: frames (byte arrays) and events
     * (a refusal, the end), drained by one task at a time.
     */
    private final class Delivery implements Runnable {
        private final Link link;
        private final Lane lane;
        private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
        private final AtomicLong bytes = new AtomicLong();
        private final AtomicBoolean scheduled = new AtomicBoolean();
        private final boolean inline;
        private volatile boolean dropped;

        Delivery(Link link, Lane lane) {
            this.link = link;
            this.lane = lane;
            this.inline = handler.nonBlocking(lane);
        }

        /**
         * A whole frame, on the poller: handled right here when the handler allows it for this
         * lane, it is small, it is the first frame of this poll of its image, and nothing of this
         * lane is queued or being handled (so order holds); else queued.
         */
        void frame(byte[] frame, Reader reader) {
            if (inline && frame.length <= INLINE_MAX_BYTES && reader.inlineLeft > 0 && !scheduled.get() && queue.isEmpty()) {
                reader.inlineLeft--;
                if (!dropped) {
                    try {
                        handler.onFrame(link, lane, frame);
                    } catch (RuntimeException e) {
                        LOG.warn("the inbound handler threw on the {} lane of {}: {}", lane, link.remote, e.toString(), e);
                    }
                }
                return;
            }
            add(frame);
        }

        void add(byte[] frame) {
            bytes.addAndGet(frame.length);
            enqueue(frame);
        }

        void add(Runnable event) {
            enqueue(event);
        }

        private void enqueue(Object item) {
            queue.offer(item);
            if (scheduled.compareAndSet(false, true)) {
                try {
                    executor.execute(this);
                } catch (RejectedExecutionException e) {
                    scheduled.set(false);
                }
            }
        }

        @Override
        public void run() {
            while (true) {
                Object item;
                while ((item = queue.poll()) != null) {
                    try {
                        if (item instanceof byte[] f) {
                            bytes.addAndGet(-f.length);
                            if (!dropped) {
                                handler.onFrame(link, lane, f);
                            }
                        } else {
                            ((Runnable) item).run();
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("the inbound handler threw on the {} lane of {}: {}", lane, link.remote, e.toString(), e);
                    }
                }
                scheduled.set(false);
                if (queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
                    return;
                }
            }
        }
    }

    /** Reads one image: Aeron's reassembly of messages, then Weft's of frames. */
    private final class Reader implements FragmentHandler {
        private final Link link;
        private final Lane lane;
        private final Image image;
        private final FragmentAssembler assembler;
        private final Delivery delivery;
        /** Frames this poll may still hand to the handler on the poller: one, so a burst goes to the queue and its drain task. */
        private int inlineLeft;
        private byte[] building;
        private int filled;
        private long skip;

        Reader(Link link, Lane lane, Image image) {
            this.link = link;
            this.lane = lane;
            this.image = image;
            this.assembler = new FragmentAssembler(this);
            this.delivery = link.deliveries[lane.ordinal()];
        }

        @Override
        public void onFragment(DirectBuffer buffer, int offset, int length, Header header) {
            if (link.ended.get()) {
                return;
            }
            if (length < Integer.BYTES) {
                protocolError("a message of " + length + " bytes, shorter than its marker");
                return;
            }
            int marker = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
            int n = length - Integer.BYTES;
            int at = offset + Integer.BYTES;
            if (marker > 0) {
                if (building != null || skip > 0) {
                    protocolError("a frame began before the previous one ended");
                } else if (n > marker) {
                    protocolError("a message of " + n + " bytes for a frame of " + marker);
                } else if (marker > maxFrameBytes) {
                    skip = marker - n;
                    String reason = "refused a " + lane + " frame of " + marker + " bytes from " + link.remote
                            + ": over this engine's maximum of " + maxFrameBytes + " bytes (AeronSettings.maxFrameBytes)";
                    delivery.add(() -> handler.onRefused(link, reason));
                } else {
                    byte[] f = new byte[marker];
                    buffer.getBytes(at, f, 0, n);
                    if (n == marker) {
                        delivery.frame(f, this);
                    } else {
                        building = f;
                        filled = n;
                    }
                }
            } else if (marker == AeronOutbound.CONTINUATION) {
                if (skip > 0) {
                    if (n > skip) {
                        protocolError("a continuation past the end of a refused frame");
                    } else {
                        skip -= n;
                    }
                } else if (building == null) {
                    protocolError("a continuation without a frame begun");
                } else if (filled + n > building.length) {
                    protocolError("a continuation past the end of its frame");
                } else {
                    buffer.getBytes(at, building, filled, n);
                    filled += n;
                    if (filled == building.length) {
                        byte[] f = building;
                        building = null;
                        delivery.frame(f, this);
                    }
                }
            } else {
                protocolError("an unknown message marker " + marker);
            }
        }

        private void protocolError(String what) {
            String reason = "closed the link from " + link.remote + " on a broken " + lane + " lane: " + what;
            delivery.add(() -> handler.onRefused(link, reason));
            building = null;
            link.end(new IOException(reason), true);
        }
    }
}
