package io.weft.actors.remote.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.FrameBuffer;
import io.weft.actors.remote.RefResolver;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The built, immutable registry: an id-indexed table for decoding and a class-keyed cache for encoding. */
final class Registry implements CodecRegistry {

    /* design
     * Decoding: byId is a plain array indexed by type id (built-ins and user types; holes are
     * null). An id outside the array or on a hole is refused by Input before any class is touched:
     * there is no path from frame bytes to Class.forName, a class loader or a constructor other
     * than the ones found at registration.
     *
     * Encoding: byClass maps a value's class to its codec, computed once per class (ClassValue):
     * the exact class's registration; for an enum constant with a body, its enum's; then the
     * built-in interfaces List, Set, Map and ActorRef; then plugged codecs registered for an
     * interface or abstract class, in registration order; otherwise an UNREGISTERED sentinel, which
     * makes encode throw a message naming the class and the fix.
     *
     * All fields are final and filled before the constructor returns; the arrays and map are never
     * written afterwards, so the registry is safely published and thread-safe. ClassValue is
     * thread-safe.
     */

    private static final TypeCodec UNREGISTERED = new TypeCodec(-1, Void.class) {
        @Override
        void write(Object value, Output out) {
            throw new AssertionError("unregistered");
        }

        @Override
        Object read(Input in) {
            throw new AssertionError("unregistered");
        }
    };

    final int maxFrameBytes;
    final int maxLength;
    final int maxDepth;

    private final TypeCodec[] byId;
    private final Map<Class<?>, TypeCodec> exact;
    private final List<PluggedCodec<?>> pluggedSupertypes;
    private final ClassValue<TypeCodec> byClass = new ClassValue<>() {
        @Override
        protected TypeCodec computeValue(Class<?> c) {
            return resolve(c);
        }
    };

    Registry(TypeCodec[] byId, Map<Class<?>, TypeCodec> exact, List<PluggedCodec<?>> pluggedSupertypes,
            int maxFrameBytes, int maxLength, int maxDepth) {
        this.byId = byId;
        this.exact = exact;
        this.pluggedSupertypes = pluggedSupertypes;
        this.maxFrameBytes = maxFrameBytes;
        this.maxLength = maxLength;
        this.maxDepth = maxDepth;
    }

    /** The codec for an id read from a frame, or null. */
    TypeCodec codecById(int id) {
        return id >= 0 && id < byId.length ? byId[id] : null;
    }

    private TypeCodec resolve(Class<?> c) {
        TypeCodec codec = exact.get(c);
        if (codec != null) {
            return codec;
        }
        if (Enum.class.isAssignableFrom(c) && c.getSuperclass() != null && c.getSuperclass().isEnum()) {
            codec = exact.get(c.getSuperclass());
            if (codec != null) {
                return codec;
            }
        }
        if (List.class.isAssignableFrom(c)) {
            return byId[Wire.LIST];
        }
        if (Set.class.isAssignableFrom(c)) {
            return byId[Wire.SET];
        }
        if (Map.class.isAssignableFrom(c)) {
            return byId[Wire.MAP];
        }
        if (ActorRef.class.isAssignableFrom(c)) {
            return byId[Wire.REF];
        }
        for (PluggedCodec<?> p : pluggedSupertypes) {
            if (p.type.isAssignableFrom(c)) {
                return p;
            }
        }
        return UNREGISTERED;
    }

    /** The codec that writes {@code value} (not null), or a CodecException naming its class and the fix. */
    TypeCodec codecFor(Object value) {
        Class<?> c = value.getClass();
        TypeCodec codec = byClass.get(c);
        if (codec == UNREGISTERED) {
            throw unregistered(c);
        }
        return codec;
    }

    private static CodecException unregistered(Class<?> c) {
        if (!c.isEnum() && c.getSuperclass() != null && c.getSuperclass().isEnum()) {
            c = c.getSuperclass(); // a constant with a body: name its enum
        }
        String fix;
        if (c.isArray()) {
            fix = "only byte[] is a built-in array; send a List instead";
        } else if (Collection.class.isAssignableFrom(c)) {
            fix = "only List and Set are built-in collections; send a List or a Set";
        } else if (c.isRecord() || c.isEnum()) {
            fix = "register it: CodecRegistry.builder(lookup).register(id, " + c.getSimpleName() + ".class) with an id from "
                    + MIN_USER_ID + " to " + MAX_USER_ID + ", the same id on every node";
        } else {
            fix = "it is neither a record nor an enum, so register it with a MessageCodec: register(id, "
                    + c.getSimpleName() + ".class, codec) with an id from " + MIN_USER_ID + " to " + MAX_USER_ID
                    + ", or send a record instead";
        }
        return new CodecException(Reason.UNREGISTERED_TYPE,
                "cannot encode a " + c.getName() + ": its class is not registered in this CodecRegistry and is not a built-in type; "
                        + fix);
    }

    @Override
    public byte[] encode(Object message) {
        Output out = new Output(64);
        out.encodeFrame(this, message);
        return out.toByteArray();
    }

    @Override
    public void encode(Object message, FrameBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        ((Output) buffer).encodeFrame(this, message);
    }

    @Override
    public Object decode(byte[] bytes, int offset, int length, RefResolver refs) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length > maxFrameBytes) {
            throw new CodecException(Reason.TOO_LARGE, "a frame of " + length + " bytes is over the registry's maxFrameBytes "
                    + maxFrameBytes + "; refused unread");
        }
        if (length == 0) {
            throw new CodecException(Reason.TRUNCATED, "an empty frame: a frame holds at least a type id");
        }
        Input in = new Input(bytes, offset, length, this, refs);
        Object value = in.readValue();
        if (in.remaining() != 0) {
            throw new CodecException(Reason.TRAILING_BYTES, in.remaining() + " byte(s) left after the message at offset "
                    + in.offset() + " of a " + length + "-byte frame; a frame holds exactly one value");
        }
        return value;
    }

    @Override
    public int idOf(Class<?> type) {
        TypeCodec codec = exact.get(type);
        return codec == null ? -1 : codec.id;
    }
}
