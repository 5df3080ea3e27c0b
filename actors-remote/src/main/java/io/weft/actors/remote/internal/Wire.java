package io.weft.actors.remote.internal;

import io.weft.actors.ActorRef;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The reserved type ids of the built-in types and the shared helpers of the wire format. */
final class Wire {

    /* design
     * A frame is one tagged value. A tagged value is an unsigned varint type id followed by the
     * type's payload. Id 0 is never valid (a zeroed buffer is refused), 1..63 are reserved for
     * built-in types (16 used, the rest free for later built-ins), 64..16383 are user ids, so every
     * id fits in one or two varint bytes.
     *
     * Integers are zigzag varints (small magnitudes of either sign are short), floats and doubles
     * their raw IEEE 754 bits big-endian (NaN payloads and -0.0 survive), booleans one byte 0/1.
     */

    static final int NULL = 1;
    static final int BOOLEAN = 2;
    static final int BYTE = 3;
    static final int SHORT = 4;
    static final int CHAR = 5;
    static final int INT = 6;
    static final int LONG = 7;
    static final int FLOAT = 8;
    static final int DOUBLE = 9;
    static final int STRING = 10;
    static final int BYTES = 11;
    static final int LIST = 12;
    static final int SET = 13;
    static final int MAP = 14;
    static final int OPTIONAL = 15;
    static final int REF = 16;
    static final int LAST_BUILTIN = REF;

    /** The built-in types by id; index 0 and NULL have none. */
    static final Class<?>[] BUILTIN_TYPES = {
        null, null, Boolean.class, Byte.class, Short.class, Character.class, Integer.class,
        Long.class, Float.class, Double.class, String.class, byte[].class, List.class, Set.class,
        Map.class, Optional.class, ActorRef.class
    };

    private Wire() {
    }

    /** The built-in id of exactly this class (not of its subclasses), or -1. */
    static int builtinId(Class<?> c) {
        for (int id = BOOLEAN; id <= LAST_BUILTIN; id++) {
            if (BUILTIN_TYPES[id] == c) {
                return id;
            }
        }
        return -1;
    }

    static int zigzag(int n) {
        return (n << 1) ^ (n >> 31);
    }

    static int unzigzag(int z) {
        return (z >>> 1) ^ -(z & 1);
    }

    static long zigzag(long n) {
        return (n << 1) ^ (n >> 63);
    }

    static long unzigzag(long z) {
        return (z >>> 1) ^ -(z & 1);
    }
}
