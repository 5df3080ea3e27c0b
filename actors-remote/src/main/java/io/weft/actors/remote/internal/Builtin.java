package io.weft.actors.remote.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The codec of one built-in type, chosen by its reserved id. */
final class Builtin extends TypeCodec {

    /* design
     * Payloads: Boolean one byte 0/1; Byte one byte; Short, Integer zigzag varint; Character
     * unsigned varint; Long zigzag varint; Float, Double raw IEEE bits big-endian; String varint
     * UTF-8 byte length + bytes; byte[] varint length + bytes; List, Set: varint size + tagged
     * elements; Map: varint size + (tagged key, tagged value) pairs; Optional: one tagged value,
     * null for empty; ActorRef: its address as a String payload.
     *
     * Decoded collections are unmodifiable views over an ArrayList, LinkedHashSet or LinkedHashMap
     * that nothing else references: encoded order is kept and nulls are allowed. A set with a
     * duplicate element or a map with a duplicate key cannot come from an encoder and is refused.
     * Collections start with a capacity of at most 16 and grow with what is read (see Input).
     */

    private static final int INITIAL_CAPACITY = 16;

    private static final Builtin[] BY_ID = new Builtin[Wire.LAST_BUILTIN + 1];

    static {
        for (int id = Wire.BOOLEAN; id <= Wire.LAST_BUILTIN; id++) {
            BY_ID[id] = new Builtin(id, Wire.BUILTIN_TYPES[id]);
        }
    }

    private Builtin(int id, Class<?> type) {
        super(id, type);
    }

    /** The codec of a reserved id, or null. */
    static Builtin byId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    @Override
    void write(Object value, Output out) {
        switch (id) {
            case Wire.BOOLEAN -> out.writeBoolean((Boolean) value);
            case Wire.BYTE -> out.writeByte((Byte) value);
            case Wire.SHORT -> out.writeInt((Short) value);
            case Wire.CHAR -> out.writeVarInt((Character) value);
            case Wire.INT -> out.writeInt((Integer) value);
            case Wire.LONG -> out.writeLong((Long) value);
            case Wire.FLOAT -> out.writeFloat((Float) value);
            case Wire.DOUBLE -> out.writeDouble((Double) value);
            case Wire.STRING -> out.writeString((String) value);
            case Wire.BYTES -> out.writeBytes((byte[]) value);
            case Wire.LIST, Wire.SET -> writeCollection((Collection<?>) value, out);
            case Wire.MAP -> writeMap((Map<?, ?>) value, out);
            case Wire.OPTIONAL -> out.writeValue(((Optional<?>) value).orElse(null));
            case Wire.REF -> out.writeString(out.addressOf((ActorRef<?>) value));
            default -> throw new AssertionError("no built-in type has id " + id);
        }
    }

    private static void writeCollection(Collection<?> c, Output out) {
        int size = c.size();
        out.checkLength(size, "a " + c.getClass().getName());
        out.writeVarInt(size);
        int written = 0;
        for (Object e : c) {
            if (++written > size) {
                break;
            }
            out.writeValue(e);
        }
        if (written != size) {
            throw new CodecException(Reason.MALFORMED, "a " + c.getClass().getName() + " of size " + size
                    + " iterated " + written + " element(s): it changed while it was encoded; send an immutable copy");
        }
    }

    private static void writeMap(Map<?, ?> m, Output out) {
        int size = m.size();
        out.checkLength(size, "a " + m.getClass().getName());
        out.writeVarInt(size);
        int written = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (++written > size) {
                break;
            }
            out.writeValue(e.getKey());
            out.writeValue(e.getValue());
        }
        if (written != size) {
            throw new CodecException(Reason.MALFORMED, "a " + m.getClass().getName() + " of size " + size
                    + " iterated " + written + " entries: it changed while it was encoded; send an immutable copy");
        }
    }

    @Override
    Object read(Input in) {
        return switch (id) {
            case Wire.BOOLEAN -> in.readBoolean();
            case Wire.BYTE -> in.readByte();
            case Wire.SHORT -> in.readShort();
            case Wire.CHAR -> in.readChar();
            case Wire.INT -> in.readInt();
            case Wire.LONG -> in.readLong();
            case Wire.FLOAT -> in.readFloat();
            case Wire.DOUBLE -> in.readDouble();
            case Wire.STRING -> in.readString();
            case Wire.BYTES -> in.readBytes();
            case Wire.LIST -> readList(in);
            case Wire.SET -> readSet(in);
            case Wire.MAP -> readMap(in);
            case Wire.OPTIONAL -> Optional.ofNullable(in.readValue());
            case Wire.REF -> in.readRef();
            default -> throw new AssertionError("no built-in type has id " + id);
        };
    }

    private static List<Object> readList(Input in) {
        int n = in.readCount(1, "a List");
        ArrayList<Object> list = new ArrayList<>(Math.min(n, INITIAL_CAPACITY));
        for (int i = 0; i < n; i++) {
            list.add(in.readValue());
        }
        return Collections.unmodifiableList(list);
    }

    private static Set<Object> readSet(Input in) {
        int n = in.readCount(1, "a Set");
        LinkedHashSet<Object> set = new LinkedHashSet<>(Math.min(n, INITIAL_CAPACITY));
        for (int i = 0; i < n; i++) {
            int at = in.offset();
            Object e = in.readValue();
            if (!UserCode.add(set, e)) {
                throw new CodecException(Reason.MALFORMED, "a Set holds the element at offset " + at
                        + " twice; an encoder never writes a duplicate");
            }
        }
        return Collections.unmodifiableSet(set);
    }

    private static Map<Object, Object> readMap(Input in) {
        int n = in.readCount(2, "a Map");
        LinkedHashMap<Object, Object> map = new LinkedHashMap<>(Math.min(n, INITIAL_CAPACITY));
        for (int i = 0; i < n; i++) {
            int at = in.offset();
            Object k = in.readValue();
            Object v = in.readValue();
            if (!UserCode.putNew(map, k, v)) {
                throw new CodecException(Reason.MALFORMED, "a Map holds the key at offset " + at
                        + " twice; an encoder never writes a duplicate key");
            }
        }
        return Collections.unmodifiableMap(map);
    }
}
