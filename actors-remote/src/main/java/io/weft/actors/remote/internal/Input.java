package io.weft.actors.remote.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;
import io.weft.actors.remote.CodecInput;
import io.weft.actors.remote.RefResolver;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Reads one frame; also the {@link CodecInput} plugged codecs read from. One per decode, not thread-safe. */
public final class Input implements CodecInput {

    /* design
     * Every read goes through need(n), which compares against the frame's end before touching the
     * array: a truncated frame is a CodecException(TRUNCATED), never an IndexOutOfBounds.
     *
     * Lengths and counts (readCount) are checked against the bytes left, at the smallest number of
     * bytes one element can take, before anything is allocated; collections then start small and
     * grow with what is actually read, so the memory a frame can make the decoder allocate is
     * proportional to the frame's bytes, not to the sizes it claims (a list claiming 2^31 elements
     * in a 10-byte frame fails at once; nested lists each claiming "the rest" allocate nothing
     * large).
     *
     * Type ids are looked up in the registry's array only; an id without an entry is refused here,
     * before anything else about the value is read.
     */

    private final byte[] buf;
    private final int start;
    private final int end;
    private final Registry registry;
    private final RefResolver refs;
    private int pos;
    private int depth;
    private CharsetDecoder utf8;

    /**
     * A reader over a whole array, for a remoting layer's own frame headers: the same bounds
     * checks as decoding, every refusal a {@link io.weft.actors.remote.CodecException}.
     *
     * @param buf the array
     * @param registry the registry whose limits apply
     * @return the reader
     */
    public static Input over(byte[] buf, io.weft.actors.remote.CodecRegistry registry) {
        return new Input(buf, 0, buf.length, (Registry) registry, null);
    }

    /** @return the position of the next byte to read */
    public int position() {
        return pos;
    }

    /**
     * Skips bytes already checked to be there by a length read.
     *
     * @param n how many, at most {@link #remaining()}
     */
    public void skip(int n) {
        need(n);
        pos += n;
    }

    Input(byte[] buf, int offset, int length, Registry registry, RefResolver refs) {
        this.buf = buf;
        this.start = offset;
        this.pos = offset;
        this.end = offset + length;
        this.registry = registry;
        this.refs = refs;
    }

    @Override
    public int remaining() {
        return end - pos;
    }

    /** The offset of the next byte, counted from the frame's start, for messages. */
    int offset() {
        return pos - start;
    }

    Registry registry() {
        return registry;
    }

    CodecException malformed(String what) {
        return new CodecException(Reason.MALFORMED, what + " at offset " + offset() + " of a " + (end - start) + "-byte frame");
    }

    private void need(int n) {
        if (n > end - pos) {
            throw new CodecException(Reason.TRUNCATED,
                    "frame truncated: " + n + " more byte(s) needed at offset " + offset() + " of a "
                            + (end - start) + "-byte frame, " + (end - pos) + " left");
        }
    }

    int readRaw() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    int readVarInt() {
        int b = readRaw();
        if (b < 0x80) {
            return b;
        }
        int result = b & 0x7F;
        for (int shift = 7; shift < 28; shift += 7) {
            b = readRaw();
            result |= (b & 0x7F) << shift;
            if (b < 0x80) {
                return result;
            }
        }
        b = readRaw();
        if (b > 0x0F) {
            throw malformed("a varint longer than 32 bits");
        }
        return result | (b << 28);
    }

    long readVarLong() {
        long result = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = readRaw();
            result |= (long) (b & 0x7F) << shift;
            if (b < 0x80) {
                return result;
            }
        }
        int b = readRaw();
        if (b > 1) {
            throw malformed("a varint longer than 64 bits");
        }
        return result | ((long) b << 63);
    }

    @Override
    public boolean readBoolean() {
        int b = readRaw();
        if (b > 1) {
            pos--;
            throw malformed("a boolean byte " + b + " (only 0 and 1 are booleans)");
        }
        return b == 1;
    }

    @Override
    public byte readByte() {
        return (byte) readRaw();
    }

    @Override
    public int readInt() {
        return Wire.unzigzag(readVarInt());
    }

    @Override
    public long readLong() {
        return Wire.unzigzag(readVarLong());
    }

    short readShort() {
        int v = readInt();
        if (v != (short) v) {
            throw malformed("a short out of range (" + v + ")");
        }
        return (short) v;
    }

    char readChar() {
        int v = readVarInt();
        if ((v & ~0xFFFF) != 0) {
            throw malformed("a char out of range (" + Integer.toUnsignedString(v) + ")");
        }
        return (char) v;
    }

    @Override
    public float readFloat() {
        need(4);
        int bits = (buf[pos] & 0xFF) << 24 | (buf[pos + 1] & 0xFF) << 16 | (buf[pos + 2] & 0xFF) << 8 | (buf[pos + 3] & 0xFF);
        pos += 4;
        return Float.intBitsToFloat(bits);
    }

    @Override
    public double readDouble() {
        need(8);
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits = bits << 8 | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return Double.longBitsToDouble(bits);
    }

    /**
     * Reads a count of items that take at least {@code minBytesEach} bytes each, refusing a count
     * the rest of the frame cannot hold or the registry's maxLength refuses.
     */
    int readCount(int minBytesEach, String what) {
        int at = offset();
        int n = readVarInt();
        if (n < 0 || (long) n * minBytesEach > end - pos) {
            throw new CodecException(Reason.LENGTH_BEYOND_INPUT,
                    what + " at offset " + at + " claims " + Integer.toUnsignedString(n) + " element(s) or byte(s), but only "
                            + (end - pos) + " byte(s) of the " + (end - start) + "-byte frame are left");
        }
        if (n > registry.maxLength) {
            throw new CodecException(Reason.TOO_LARGE,
                    what + " at offset " + at + " has length " + n + ", over the registry's maxLength "
                            + registry.maxLength + "; the sender must split it, or raise maxLength on both sides");
        }
        return n;
    }

    @Override
    public int readLength() {
        return readCount(1, "a length");
    }

    @Override
    public String readString() {
        int n = readCount(1, "a string");
        int from = pos;
        boolean ascii = true;
        for (int i = from, to = from + n; i < to; i++) {
            if (buf[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            pos += n;
            return new String(buf, from, n, StandardCharsets.ISO_8859_1);
        }
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            String s = utf8.decode(ByteBuffer.wrap(buf, from, n)).toString();
            pos += n;
            return s;
        } catch (CharacterCodingException e) {
            throw new CodecException(Reason.MALFORMED,
                    "a string of " + n + " bytes at offset " + (from - start) + " is not well-formed UTF-8", e);
        }
    }

    @Override
    public byte[] readBytes() {
        int n = readCount(1, "a byte[]");
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }

    @Override
    public Object readValue() {
        int at = offset();
        int id = readVarInt();
        if (id == Wire.NULL) {
            return null;
        }
        TypeCodec codec = registry.codecById(id);
        if (codec == null) {
            throw new CodecException(Reason.UNKNOWN_TYPE_ID,
                    "unknown type id " + Integer.toUnsignedString(id) + " at offset " + at + " of a " + (end - start)
                            + "-byte frame: no type is registered under it, so the frame is refused before any class is"
                            + " looked up; sender and receiver must register the same types under the same ids");
        }
        if (depth >= registry.maxDepth) {
            throw new CodecException(Reason.TOO_DEEP,
                    "values nest deeper than the registry's maxDepth " + registry.maxDepth + " at offset " + at
                            + " (a " + codec.describe() + ")");
        }
        depth++;
        try {
            return codec.read(this);
        } finally {
            depth--;
        }
    }

    @Override
    public <T> T readValue(Class<T> type) {
        int at = offset();
        Object v = readValue();
        if (v != null && !type.isInstance(v)) {
            throw new CodecException(Reason.MALFORMED, "a value at offset " + at + " is a " + v.getClass().getName()
                    + ", not the expected " + type.getName());
        }
        return type.cast(v);
    }

    ActorRef<?> readRef() {
        int at = offset();
        String address = readString();
        if (refs == null) {
            throw new CodecException(Reason.UNRESOLVED_REF, "the frame holds an actor ref (address '" + clip(address)
                    + "' at offset " + at + ") but decode was given no RefResolver; pass one");
        }
        ActorRef<?> ref;
        try {
            ref = refs.resolve(address);
        } catch (RuntimeException e) {
            throw new CodecException(Reason.UNRESOLVED_REF,
                    "the RefResolver refused the address '" + clip(address) + "' at offset " + at + ": " + e, e);
        }
        if (ref == null) {
            throw new CodecException(Reason.UNRESOLVED_REF,
                    "the RefResolver returned null for the address '" + clip(address) + "' at offset " + at
                            + "; it must return a ref or throw");
        }
        return ref;
    }

    static String clip(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
