package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.Exit;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Terminated;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.internal.Input;
import io.weft.actors.remote.internal.Output;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The inbound side of one system's remoting: every frame a bound transport delivers. */
final class Inbound implements InboundHandler {

    /* design
     * A frame first has its magic and version checked (Frames.reader, Frames.kind); a bad header
     * closes the link. HELLO and HELLO_ACK are handshakes and travel only on the control lane: one
     * names the peer (system, host:port, incarnation) and binds the link to that peer's
     * Association in the core's inbound map, quarantining an Association of an older incarnation;
     * a HELLO is answered with a HELLO_ACK echoing its link nonce. Any other frame needs a link with
     * a handshake and the peer's current incarnation: heartbeats feed the phi detector, ACKs
     * release resent system messages, SYSTEM frames (watch, unwatch, terminated) are applied once
     * in sequence order and acked, and ENVELOPES batches (ordinary and large lanes only) are decoded
     * and told to local actors; in untrusted mode lifecycle signals and messages for the watch
     * helper are refused.
     *
     * Every refusal is counted under a Drop reason and logged as one line (at most one per second
     * per reason, under RemotingCore's logger); nothing from the network throws past onFrame.
     * Handshake and lookup state (associations, inbound links, quarantined incarnations, metrics)
     * belongs to the RemotingCore and is reached through its package-private accessors.
     */

    private static final Logger LOG = LoggerFactory.getLogger(RemotingCore.class);

    private final RemotingCore core;
    private final CodecRegistry codec;
    private final RemoteSettings settings;
    private final long incarnation;
    private final Metrics metrics;
    private final Map<String, Association> associations;
    private final Map<InboundLink, Association> inbound;
    private final Set<String> dead;
    private final long[] lastLog = new long[RemoteMetrics.Drop.values().length];

    /** Called from the core's constructor, once its codec, settings, incarnation and maps are set. */
    Inbound(RemotingCore core) {
        this.core = core;
        this.codec = core.codec;
        this.settings = core.settings;
        this.incarnation = core.incarnation;
        this.metrics = core.counters();
        this.associations = core.associations();
        this.inbound = core.inboundLinks();
        this.dead = core.deadIncarnations();
    }

    @Override
    public boolean nonBlocking(Lane lane) {
        return lane == Lane.ORDINARY; // decoded and told; control frames may connect (a handshake)
    }

    @Override
    public void onFrame(InboundLink from, Lane lane, byte[] frame) {
        metrics.received(lane, frame.length);
        try {
            Input in = Frames.reader(frame, codec);
            int kind = Frames.kind(in, frame);
            if (kind == Frames.HELLO || kind == Frames.HELLO_ACK) {
                if (lane != Lane.CONTROL) {
                    refuse(from, RemoteMetrics.Drop.NO_HANDSHAKE, "a handshake on lane " + lane + ", not the control lane");
                    return;
                }
                handshake(from, kind, in);
                return;
            }
            Association a = inbound.get(from);
            if (a == null || a.isQuarantined()) {
                refuse(from, RemoteMetrics.Drop.NO_HANDSHAKE, "a frame of kind " + kind + " before a handshake on " + from);
                from.close();
                return;
            }
            long inc = in.readLong();
            if (inc != a.peerIncarnation) {
                refuse(from, RemoteMetrics.Drop.REFUSED_PEER, "a frame from incarnation " + inc + " on a link of incarnation " + a.peerIncarnation);
                return;
            }
            if ((kind == Frames.ENVELOPES) == (lane == Lane.CONTROL)) {
                refuse(from, RemoteMetrics.Drop.NO_HANDSHAKE, "a frame of kind " + kind + " on lane " + lane);
                return;
            }
            switch (kind) {
                case Frames.HEARTBEAT -> {
                    Frames.expectEnd(in);
                    PhiAccrual d = a.detector;
                    if (d != null) {
                        d.heartbeat(System.currentTimeMillis());
                    }
                    metrics.receivedMessages(lane, 1);
                }
                case Frames.ACK -> {
                    long seq = in.readLong();
                    Frames.expectEnd(in);
                    a.acked(seq);
                }
                case Frames.SYSTEM -> systemMessage(a, in);
                case Frames.ENVELOPES -> envelopes(a, lane, frame, in);
                default -> throw new Frames.BadHeader("unexpected kind " + kind);
            }
        } catch (Frames.BadHeader e) {
            refuse(from, RemoteMetrics.Drop.BAD_HEADER, e.getMessage() + "; link closed");
            from.close();
        } catch (CodecException e) {
            refuse(from, RemoteMetrics.Drop.MALFORMED, "a malformed frame (" + e.reason() + "): " + e.getMessage());
        } catch (RuntimeException e) {
            refuse(from, RemoteMetrics.Drop.MALFORMED, "a frame that could not be handled: " + e);
        }
    }

    private void handshake(InboundLink from, int kind, Input in) {
        String sys = in.readString();
        String host = in.readString();
        int port = in.readInt();
        long inc = in.readLong();
        long answering = in.readLong();
        long nonce = in.readLong();
        Frames.expectEnd(in);
        if (!settings.allowedSystems().isEmpty() && !settings.allowedSystems().contains(sys)) {
            refuse(from, RemoteMetrics.Drop.REFUSED_PEER, "a handshake from system \"" + Address.clip(sys) + "\", not in the allowed systems "
                    + settings.allowedSystems() + "; link closed");
            from.close();
            return;
        }
        if (port <= 0 || port > 65535 || inc == 0 || host.isEmpty() || host.length() > 255) {
            refuse(from, RemoteMetrics.Drop.MALFORMED, "a handshake with port " + port + ", incarnation " + inc + "; link closed");
            from.close();
            return;
        }
        String hp = host + ":" + port;
        if (dead.contains(hp + "#" + inc)) {
            refuse(from, RemoteMetrics.Drop.REFUSED_PEER, "a handshake from quarantined system " + sys + " at " + hp + " incarnation " + inc + "; link closed");
            from.close();
            return;
        }
        if (kind == Frames.HELLO_ACK && answering != incarnation) {
            refuse(from, RemoteMetrics.Drop.REFUSED_PEER, "a handshake answer for incarnation " + answering + ", not this node's " + incarnation);
            return;
        }
        Association a;
        boolean[] created = new boolean[1];
        while (true) {
            a = associations.computeIfAbsent(hp, k -> {
                created[0] = true;
                return new Association(core, sys, k, new InetSocketAddress(host, port), inc);
            });
            if (a.peerIncarnation == 0) {
                a.peerIncarnation = inc;
                a.system = sys;
            }
            if (a.peerIncarnation == inc && !a.isQuarantined()) {
                break;
            }
            core.quarantine(a, "it restarted as incarnation " + inc);
        }
        if (a.detector == null) {
            PhiAccrual d = new PhiAccrual(settings.heartbeatInterval().toMillis(), settings.acceptableHeartbeatPause().toMillis());
            d.heartbeat(System.currentTimeMillis());
            a.detector = d;
        }
        Association previous = inbound.put(from, a);
        if (previous != null && previous != a) {
            inbound.remove(from, a);
            refuse(from, RemoteMetrics.Drop.REFUSED_PEER, "a second handshake naming another peer on one link; link closed");
            from.close();
            return;
        }
        metrics.receivedMessages(Lane.CONTROL, 1);
        if (kind == Frames.HELLO) {
            core.ensureLink(a);
            a.sendControl(core.hello(Frames.HELLO_ACK, inc, nonce));
        } else if (created[0] || a.link() == null || nonce != a.linkNonce) {
            // the answer came to a HELLO sent on another link: handshake on this association's own
            core.ensureLink(a);
        } else {
            a.established();
            RemoteEvents.association(core, a, RemoteEvents.HANDSHAKE_DONE, "the peer answered this node's handshake");
        }
    }

    private void systemMessage(Association a, Input in) {
        long seq = in.readLong();
        int op = in.readInt();
        String target = in.readString();
        String watcher = in.readString();
        Frames.expectEnd(in);
        metrics.receivedMessages(Lane.CONTROL, 1);
        if (a.accept(seq)) {
            switch (op) {
                case Frames.WATCH -> core.watchHelper().watch(a, target, watcher);
                case Frames.UNWATCH -> core.watchHelper().unwatch(a, target, watcher);
                case Frames.TERMINATED -> a.remoteTerminated(target);
                default -> refuse(null, RemoteMetrics.Drop.MALFORMED, "a system message with unknown op " + op);
            }
        }
        Output out = Frames.start(Frames.ACK, 24);
        out.writeLong(incarnation);
        out.writeLong(a.lastDelivered());
        a.sendControl(out.toByteArray());
    }

    private void envelopes(Association a, Lane lane, byte[] frame, Input in) {
        int count = in.readLength();
        boolean untrusted = settings.isUntrusted();
        int delivered = 0;
        io.weft.actors.remote.RefResolver resolver = a.resolver;
        String recipientAddress = null;
        String senderAddress = null;
        ActorRef<Object> recipient = null;
        ActorRef<Object> sender = null;
        String recipientBad = null;
        for (int i = 0; i < count; i++) {
            int flags = in.readByte();
            if ((flags & ~(Frames.SAME_RECIPIENT | Frames.SAME_SENDER)) != 0
                    || (i == 0 && flags != 0)) {
                throw new CodecException(CodecException.Reason.MALFORMED, "envelope flags " + flags + " at envelope " + i);
            }
            if ((flags & Frames.SAME_RECIPIENT) == 0) {
                recipientAddress = in.readString();
                recipientBad = null;
                try {
                    recipient = a.cached(recipientAddress, resolver);
                } catch (IllegalArgumentException e) {
                    recipientBad = "a message for " + Address.clip(recipientAddress) + ": " + e.getMessage();
                }
            }
            if ((flags & Frames.SAME_SENDER) == 0) {
                senderAddress = in.readString();
                sender = senderAddress.isEmpty() ? null : a.cached(senderAddress, resolver);
            }
            int len = in.readLength();
            int at = in.position();
            in.skip(len);
            Object message = codec.decode(frame, at, len, resolver);
            if (recipientBad != null) {
                refuse(null, RemoteMetrics.Drop.UNKNOWN_RECIPIENT, recipientBad);
                continue;
            }
            if (message == null) {
                refuse(null, RemoteMetrics.Drop.MALFORMED, "a null message for " + recipient);
                continue;
            }
            if (recipient instanceof RemoteRefImpl) {
                refuse(null, RemoteMetrics.Drop.UNKNOWN_RECIPIENT, "a message for " + Address.clip(recipientAddress) + ", not an actor of this system");
                continue;
            }
            if (untrusted && (message instanceof Terminated || message instanceof Exit || message instanceof DeadLetter
                    || message instanceof LifecycleEvent || recipient.equals(core.watchHelper().actor()))) {
                refuse(null, RemoteMetrics.Drop.UNTRUSTED, "a " + message.getClass().getSimpleName() + " for " + recipient
                        + " from " + a.hostPort + ", refused in untrusted mode");
                continue;
            }
            recipient.tell(message, sender);
            core.replied(recipient);
            delivered++;
        }
        Frames.expectEnd(in);
        metrics.receivedMessages(lane, delivered);
    }

    @Override
    public void onRefused(InboundLink from, String reason) {
        refuse(from, RemoteMetrics.Drop.OVERSIZED, reason);
    }

    @Override
    public void onClosed(InboundLink link, Throwable cause) {
        inbound.remove(link);
    }

    private void refuse(InboundLink from, RemoteMetrics.Drop why, String what) {
        metrics.drop(why);
        RemoteEvents.drop(core, why, null, from == null ? null : String.valueOf(from.remote()));
        long now = System.nanoTime();
        int i = why.ordinal();
        if (now - lastLog[i] > 1_000_000_000L) {
            lastLog[i] = now;
            LOG.warn("remoting of system {} refused {} ({}; {} such drops so far, logged at most once a second)",
                    core.system.name(), what, why, metrics.dropped(why));
        }
    }
}
