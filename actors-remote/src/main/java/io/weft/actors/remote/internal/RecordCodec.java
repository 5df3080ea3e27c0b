package io.weft.actors.remote.internal;

import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;

import java.lang.invoke.MethodHandle;

/** A record's codec: its components in declaration order, built back through the canonical constructor. */
final class RecordCodec extends TypeCodec {

    /* design
     * Primitive components are written untagged (their type is fixed by the record): boolean and
     * byte one byte, short/int/long zigzag varints, char an unsigned varint, float/double raw IEEE
     * bits. Reference components are tagged values, so a component of a sealed interface, Object
     * or an interface carries the concrete type's id, and null is the NULL id.
     *
     * The method handles are found once, at registration, through the user's Lookup: accessors
     * adapted to (Object)prim or (Object)Object so writing a primitive does not box, and the
     * canonical constructor adapted to (Object[])Object. Every decoded reference component is
     * checked against its component's TypeCheck before the constructor runs, so the constructor's
     * casts cannot fail; whatever the constructor throws (its own validation) becomes a
     * CodecException(USER_CODE_FAILED).
     */

    static final int K_BOOLEAN = 0;
    static final int K_BYTE = 1;
    static final int K_SHORT = 2;
    static final int K_CHAR = 3;
    static final int K_INT = 4;
    static final int K_LONG = 5;
    static final int K_FLOAT = 6;
    static final int K_DOUBLE = 7;
    static final int K_REF = 8;

    private static final String FOUND_IN = "; found in component '";

    private final MethodHandle constructor;
    private final MethodHandle[] accessors;
    private final int[] kinds;
    private final TypeCheck[] checks;
    private final String[] names;
    private final String[] typeNames;

    RecordCodec(int id, Class<?> type, MethodHandle constructor, MethodHandle[] accessors, int[] kinds,
            TypeCheck[] checks, String[] names, String[] typeNames) {
        super(id, type);
        this.constructor = constructor;
        this.accessors = accessors;
        this.kinds = kinds;
        this.checks = checks;
        this.names = names;
        this.typeNames = typeNames;
    }

    @Override
    void write(Object value, Output out) {
        int i = 0;
        try {
            for (; i < kinds.length; i++) {
                MethodHandle a = accessors[i];
                switch (kinds[i]) {
                    case K_BOOLEAN -> out.writeBoolean((boolean) a.invokeExact(value));
                    case K_BYTE -> out.writeByte((byte) a.invokeExact(value));
                    case K_SHORT -> out.writeInt((short) a.invokeExact(value));
                    case K_CHAR -> out.writeVarInt((char) a.invokeExact(value));
                    case K_INT -> out.writeInt((int) a.invokeExact(value));
                    case K_LONG -> out.writeLong((long) a.invokeExact(value));
                    case K_FLOAT -> out.writeFloat((float) a.invokeExact(value));
                    case K_DOUBLE -> out.writeDouble((double) a.invokeExact(value));
                    default -> {
                        Object v = (Object) a.invokeExact(value);
                        if (!checks[i].allows(v)) {
                            throw new CodecException(Reason.MALFORMED, "component '" + names[i] + "' of record "
                                    + describe() + " is declared " + typeNames[i] + " but holds a "
                                    + v.getClass().getName() + " (or elements of another type), put there through an unchecked cast");
                        }
                        out.writeValue(v);
                    }
                }
            }
        } catch (CodecException e) {
            if (e.reason() == Reason.UNREGISTERED_TYPE && !e.getMessage().contains(FOUND_IN)) {
                // the innermost record names where the unregistered value sits
                throw new CodecException(e.reason(), e.getMessage() + FOUND_IN + names[i] + "' of record " + describe(), e);
            }
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw new CodecException(Reason.USER_CODE_FAILED,
                    "the accessor of component '" + names[i] + "' of record " + describe() + " threw: " + e, e);
        }
    }

    @Override
    Object read(Input in) {
        int n = kinds.length;
        Object[] args = new Object[n];
        for (int i = 0; i < n; i++) {
            switch (kinds[i]) {
                case K_BOOLEAN -> args[i] = in.readBoolean();
                case K_BYTE -> args[i] = in.readByte();
                case K_SHORT -> args[i] = in.readShort();
                case K_CHAR -> args[i] = in.readChar();
                case K_INT -> args[i] = in.readInt();
                case K_LONG -> args[i] = in.readLong();
                case K_FLOAT -> args[i] = in.readFloat();
                case K_DOUBLE -> args[i] = in.readDouble();
                default -> {
                    int at = in.offset();
                    Object v = in.readValue();
                    if (!checks[i].allows(v)) {
                        throw new CodecException(Reason.MALFORMED, "component '" + names[i] + "' of record "
                                + describe() + " is declared " + typeNames[i] + " but the frame has a "
                                + v.getClass().getName() + " (or elements of another type) at offset " + at);
                    }
                    args[i] = v;
                }
            }
        }
        try {
            return (Object) constructor.invokeExact(args);
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw new CodecException(Reason.USER_CODE_FAILED,
                    "the canonical constructor of record " + describe() + " refused the decoded components: " + e, e);
        }
    }
}
