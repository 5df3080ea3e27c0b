package io.weft.actors.remote.internal.remoting;

import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.internal.Input;
import io.weft.actors.remote.internal.Output;

/** The remoting's frame kinds and header. */
final class Frames {

    /* design
     * Every frame starts with the magic bytes 'W' 'F', the version 1 and a kind byte; the rest is
     * written with the codec's Output (varints and length-prefixed strings) and read with its
     * bounds-checked Input, so a short or lying frame is a CodecException, counted as MALFORMED.
     *
     *   HELLO, HELLO_ACK  system, host, port, incarnation, the peer incarnation it answers (0 if
     *                     none), the nonce of the sender's link (HELLO) or of the HELLO answered (ACK)
     *   HEARTBEAT         incarnation
     *   SYSTEM            incarnation, seq, op (WATCH/UNWATCH/TERMINATED), target address, watcher address
     *   ACK               incarnation, cumulative seq
     *   ENVELOPES         incarnation, count, then count times: a flags byte, the recipient unless
     *                     flagged SAME_RECIPIENT (as the envelope before), the sender ("" for none)
     *                     unless flagged SAME_SENDER, the message frame; most batches name one pair,
     *                     so its addresses are written and resolved once per frame
     * Control kinds travel on the control lane only, ENVELOPES on the ordinary and large lanes.
     */

    static final byte M0 = 'W';
    static final byte M1 = 'F';
    static final byte VERSION = 1;

    static final int HELLO = 1;
    static final int HELLO_ACK = 2;
    static final int HEARTBEAT = 3;
    static final int SYSTEM = 4;
    static final int ACK = 5;
    static final int ENVELOPES = 6;

    static final int SAME_RECIPIENT = 1;
    static final int SAME_SENDER = 2;

    static final int WATCH = 1;
    static final int UNWATCH = 2;
    static final int TERMINATED = 3;

    private Frames() {
    }

    static Output start(int kind, int capacity) {
        Output out = new Output(capacity);
        out.writeByte(M0);
        out.writeByte(M1);
        out.writeByte(VERSION);
        out.writeByte((byte) kind);
        return out;
    }

    /** A bad header, as a refusal. */
    static final class BadHeader extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadHeader(String message) {
            super(message, null, false, false);
        }
    }

    /** Checks the header and returns the kind; the reader is left after it. */
    static int kind(Input in, byte[] frame) {
        if (frame.length < 4 || frame[0] != M0 || frame[1] != M1) {
            throw new BadHeader("a frame of " + frame.length + " bytes does not start with Weft's magic bytes 'WF'");
        }
        if (frame[2] != VERSION) {
            throw new BadHeader("a frame has version " + frame[2] + ", this node speaks version " + VERSION);
        }
        in.skip(4);
        int kind = frame[3];
        if (kind < HELLO || kind > ENVELOPES) {
            throw new BadHeader("a frame has unknown kind " + kind);
        }
        return kind;
    }

    static Input reader(byte[] frame, CodecRegistry codec) {
        return Input.over(frame, codec);
    }

    static void expectEnd(Input in) {
        if (in.remaining() != 0) {
            throw new CodecException(CodecException.Reason.TRAILING_BYTES, in.remaining() + " byte(s) after the end of a frame");
        }
    }

    /** An ENVELOPES frame of the batch, whose messages hold {@code bytes} bytes in all. */
    static byte[] envelopes(long incarnation, java.util.List<OutboundLanes.Envelope> batch, int bytes) {
        Output out = Frames.start(Frames.ENVELOPES, bytes + batch.size() * 80 + 32);
        out.writeLong(incarnation);
        out.writeLength(batch.size());
        String lastRecipient = null;
        String lastSender = null;
        for (OutboundLanes.Envelope e : batch) {
            String r = e.recipient().address();
            String s = e.senderAddress();
            boolean sameR = r.equals(lastRecipient);
            boolean sameS = s.equals(lastSender);
            out.writeByte((byte) ((sameR ? Frames.SAME_RECIPIENT : 0) | (sameS ? Frames.SAME_SENDER : 0)));
            if (!sameR) {
                out.writeString(r);
                lastRecipient = r;
            }
            if (!sameS) {
                out.writeString(s);
                lastSender = s;
            }
            out.writeBytes(e.bytes());
        }
        return out.toByteArray();
    }
}
