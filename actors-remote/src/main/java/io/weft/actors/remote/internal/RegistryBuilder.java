package io.weft.actors.remote.internal;

import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.MessageCodec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** Collects registrations, checks them and builds a {@link Registry}. */
public final class RegistryBuilder implements CodecRegistry.Builder {

    /* design
     * register() checks what one registration can show: the id's range and uniqueness, the type's
     * uniqueness and kind, and for a record that the Lookup reaches its canonical constructor and
     * accessors (the handles are found here, once; nothing is looked up later). build() checks what
     * needs every registration: each record component's generic type must be encodable (primitive,
     * built-in, registered, covered by a plugged codec for a supertype, or an interface / abstract
     * class, which encode checks per value), and a sealed interface or class used as a component
     * must have every final permitted subtype registered, so a sealed hierarchy is complete or
     * refused at startup rather than at the first unlucky message.
     *
     * Registration inspects only the Class objects the caller passes (and, for sealed types, their
     * permitted subclasses); decoding never reaches this code.
     */

    private static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;
    private static final int DEFAULT_MAX_LENGTH = 8 << 20;
    private static final int DEFAULT_MAX_DEPTH = 64;
    private static final int MAX_DEPTH_LIMIT = 256;

    private static final class Pending {
        final int id;
        final Class<?> type;
        final MethodHandle constructor;
        final MethodHandle[] accessors;
        final PluggedCodec<?> plugged;

        Pending(int id, Class<?> type, MethodHandle constructor, MethodHandle[] accessors, PluggedCodec<?> plugged) {
            this.id = id;
            this.type = type;
            this.constructor = constructor;
            this.accessors = accessors;
            this.plugged = plugged;
        }
    }

    private final MethodHandles.Lookup lookup;
    private final Map<Integer, Pending> byId = new LinkedHashMap<>();
    private final Map<Class<?>, Pending> byType = new HashMap<>();
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private int maxLength = DEFAULT_MAX_LENGTH;
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private boolean built;

    /**
     * Creates a builder.
     *
     * @param lookup the lookup records are accessed through, not null
     */
    public RegistryBuilder(MethodHandles.Lookup lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    private void checkOpen() {
        if (built) {
            throw new IllegalStateException("this CodecRegistry.Builder has built its registry; start a new builder");
        }
    }

    private void checkIdAndType(int id, Class<?> type) {
        Objects.requireNonNull(type, "type");
        String name = type.getName();
        int builtin = Wire.builtinId(type);
        if (builtin > 0 || type == Object.class || io.weft.actors.ActorRef.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": it is a built-in type"
                    + (builtin > 0 ? " (reserved id " + builtin + ")" : "") + " and is encoded without registration; remove this registration");
        }
        if (id < CodecRegistry.MIN_USER_ID || id > CodecRegistry.MAX_USER_ID) {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": user type ids go from "
                    + CodecRegistry.MIN_USER_ID + " to " + CodecRegistry.MAX_USER_ID + " (ids " + CodecRegistry.MIN_RESERVED_ID
                    + " to " + CodecRegistry.MAX_RESERVED_ID + " are reserved for built-in types); pick an id in that range");
        }
        Pending taken = byId.get(id);
        if (taken != null) {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": the id is already taken by "
                    + taken.type.getName() + "; give each type its own id");
        }
        Pending again = byType.get(type);
        if (again != null) {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": it is already registered under id "
                    + again.id + "; register each type once");
        }
    }

    @Override
    public CodecRegistry.Builder register(int id, Class<?> type) {
        checkOpen();
        checkIdAndType(id, type);
        String name = type.getName();
        Pending p;
        if (type.isEnum()) {
            p = new Pending(id, type, null, null, null);
        } else if (type.isRecord()) {
            p = recordHandles(id, type);
        } else if (type.isInterface() && type.isSealed()) {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": a sealed interface has no"
                    + " id of its own; register each of its record implementations with its own id");
        } else {
            throw new IllegalArgumentException("cannot register " + name + " under id " + id + ": it is neither a record nor"
                    + " an enum; make it a record, or register it with a MessageCodec: register(" + id + ", "
                    + type.getSimpleName() + ".class, codec)");
        }
        byId.put(id, p);
        byType.put(type, p);
        return this;
    }

    private Pending recordHandles(int id, Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] params = new Class<?>[components.length];
        MethodHandle[] accessors = new MethodHandle[components.length];
        MethodHandle constructor;
        try {
            for (int i = 0; i < components.length; i++) {
                params[i] = components[i].getType();
                MethodHandle a = lookup.unreflect(components[i].getAccessor());
                Class<?> ret = params[i].isPrimitive() ? params[i] : Object.class;
                accessors[i] = a.asType(MethodType.methodType(ret, Object.class));
            }
            constructor = lookup.findConstructor(type, MethodType.methodType(void.class, params))
                    .asType(MethodType.genericMethodType(params.length))
                    .asSpreader(Object[].class, params.length);
        } catch (IllegalAccessException | NoSuchMethodException e) {
            throw new IllegalArgumentException("cannot register record " + type.getName() + " under id " + id
                    + ": the Lookup passed to CodecRegistry.builder (" + lookup + ") cannot access its canonical constructor"
                    + " or accessors (" + e.getMessage() + "); pass MethodHandles.lookup() from a class in the record's"
                    + " package, or make the record public in a package its module exports to the lookup's module", e);
        }
        return new Pending(id, type, constructor, accessors, null);
    }

    @Override
    public <T> CodecRegistry.Builder register(int id, Class<T> type, MessageCodec<T> codec) {
        checkOpen();
        checkIdAndType(id, type);
        Objects.requireNonNull(codec, "codec");
        if (type.isPrimitive() || type.isArray()) {
            throw new IllegalArgumentException("cannot register " + type.getName() + " under id " + id
                    + ": primitives and arrays cannot have a MessageCodec; wrap the value in a record");
        }
        Pending p = new Pending(id, type, null, null, new PluggedCodec<>(id, type, codec));
        byId.put(id, p);
        byType.put(type, p);
        return this;
    }

    @Override
    public CodecRegistry.Builder maxFrameBytes(int bytes) {
        checkOpen();
        if (bytes < 16) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 16, was " + bytes);
        }
        maxFrameBytes = bytes;
        return this;
    }

    @Override
    public CodecRegistry.Builder maxLength(int length) {
        checkOpen();
        if (length < 1) {
            throw new IllegalArgumentException("maxLength must be at least 1, was " + length);
        }
        maxLength = length;
        return this;
    }

    @Override
    public CodecRegistry.Builder maxDepth(int depth) {
        checkOpen();
        if (depth < 1 || depth > MAX_DEPTH_LIMIT) {
            throw new IllegalArgumentException("maxDepth must be from 1 to " + MAX_DEPTH_LIMIT + ", was " + depth);
        }
        maxDepth = depth;
        return this;
    }

    @Override
    public CodecRegistry build() {
        checkOpen();
        int top = Wire.LAST_BUILTIN;
        for (int id : byId.keySet()) {
            top = Math.max(top, id);
        }
        TypeCodec[] table = new TypeCodec[top + 1];
        Map<Class<?>, TypeCodec> exact = new HashMap<>();
        for (int id = Wire.BOOLEAN; id <= Wire.LAST_BUILTIN; id++) {
            Builtin b = Builtin.byId(id);
            table[id] = b;
            exact.put(b.type, b);
        }
        List<PluggedCodec<?>> supertypes = new ArrayList<>();
        for (Pending p : byId.values()) {
            TypeCodec codec;
            if (p.plugged != null) {
                codec = p.plugged;
                if (p.type.isInterface() || Modifier.isAbstract(p.type.getModifiers())) {
                    supertypes.add(p.plugged);
                }
            } else if (p.type.isEnum()) {
                codec = new EnumCodec(p.id, p.type);
            } else {
                codec = recordCodec(p);
            }
            table[p.id] = codec;
            exact.put(p.type, codec);
        }
        built = true;
        return new Registry(table, Map.copyOf(exact), List.copyOf(supertypes), maxFrameBytes, maxLength, maxDepth);
    }

    private RecordCodec recordCodec(Pending p) {
        RecordComponent[] components = p.type.getRecordComponents();
        int n = components.length;
        int[] kinds = new int[n];
        TypeCheck[] checks = new TypeCheck[n];
        String[] names = new String[n];
        String[] typeNames = new String[n];
        for (int i = 0; i < n; i++) {
            RecordComponent rc = components[i];
            Class<?> t = rc.getType();
            names[i] = rc.getName();
            typeNames[i] = rc.getGenericType().getTypeName();
            kinds[i] = kindOf(t);
            checks[i] = kinds[i] == RecordCodec.K_REF ? checkFor(rc.getGenericType(), p, rc) : TypeCheck.ANY;
        }
        return new RecordCodec(p.id, p.type, p.constructor, p.accessors, kinds, checks, names, typeNames);
    }

    private static int kindOf(Class<?> t) {
        if (t == boolean.class) {
            return RecordCodec.K_BOOLEAN;
        } else if (t == byte.class) {
            return RecordCodec.K_BYTE;
        } else if (t == short.class) {
            return RecordCodec.K_SHORT;
        } else if (t == char.class) {
            return RecordCodec.K_CHAR;
        } else if (t == int.class) {
            return RecordCodec.K_INT;
        } else if (t == long.class) {
            return RecordCodec.K_LONG;
        } else if (t == float.class) {
            return RecordCodec.K_FLOAT;
        } else if (t == double.class) {
            return RecordCodec.K_DOUBLE;
        }
        return RecordCodec.K_REF;
    }

    /** The check for a component's (part of a) generic type; refuses a type that cannot be encoded. */
    private TypeCheck checkFor(Type t, Pending owner, RecordComponent rc) {
        if (t instanceof Class<?> c) {
            checkEncodable(c, owner, rc);
            return TypeCheck.instanceOf(c);
        }
        if (t instanceof ParameterizedType pt) {
            Class<?> raw = (Class<?>) pt.getRawType();
            Type[] args = pt.getActualTypeArguments();
            if (raw == List.class || raw == Set.class) {
                return TypeCheck.collection(raw, checkFor(args[0], owner, rc));
            } else if (raw == Map.class) {
                return TypeCheck.map(checkFor(args[0], owner, rc), checkFor(args[1], owner, rc));
            } else if (raw == Optional.class) {
                return TypeCheck.optional(checkFor(args[0], owner, rc));
            }
            checkEncodable(raw, owner, rc);
            return TypeCheck.instanceOf(raw);
        }
        if (t instanceof WildcardType w) {
            return checkFor(w.getUpperBounds()[0], owner, rc);
        }
        if (t instanceof TypeVariable<?> v) {
            Type bound = v.getBounds()[0];
            return bound instanceof TypeVariable<?> ? TypeCheck.ANY : checkFor(bound, owner, rc);
        }
        if (t instanceof GenericArrayType) {
            throw refuse(owner, rc, t.getTypeName(), "arrays other than byte[] are not encodable; declare a List instead");
        }
        throw refuse(owner, rc, t.getTypeName(), "this kind of type is not encodable");
    }

    private void checkEncodable(Class<?> c, Pending owner, RecordComponent rc) {
        if (c == Object.class || Wire.builtinId(c) > 0 || byType.containsKey(c) || coveredByPlugged(c)) {
            return;
        }
        if (c.isPrimitive()) {
            return;
        }
        if (c.isArray()) {
            throw refuse(owner, rc, c.getTypeName(), "arrays other than byte[] are not encodable; declare a List instead");
        }
        if (c.isRecord() || c.isEnum()) {
            // checked before isSealed: an enum whose constants have bodies is implicitly sealed
            throw refuse(owner, rc, c.getTypeName(),
                    "register " + c.getSimpleName() + " with its own id: register(id, " + c.getSimpleName() + ".class)");
        }
        if (c.isSealed()) {
            checkSealed(c, c, owner, rc);
            return;
        }
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            return; // open type: each value's class is checked when it is encoded
        }
        throw refuse(owner, rc, c.getTypeName(),
                "it is neither a record nor an enum; register it with a MessageCodec, or declare the component as a record type");
    }

    private boolean coveredByPlugged(Class<?> c) {
        for (Pending p : byId.values()) {
            if (p.plugged != null && p.type.isAssignableFrom(c)) {
                return true;
            }
        }
        return false;
    }

    private void checkSealed(Class<?> root, Class<?> sealed, Pending owner, RecordComponent rc) {
        for (Class<?> sub : sealed.getPermittedSubclasses()) {
            if (byType.containsKey(sub) || coveredByPlugged(sub)) {
                continue;
            }
            if (sub.isSealed()) {
                checkSealed(root, sub, owner, rc);
            } else if (sub.isRecord() || sub.isEnum() || Modifier.isFinal(sub.getModifiers())) {
                throw refuse(owner, rc, root.getName(), "the sealed type " + root.getSimpleName() + " permits "
                        + sub.getName() + ", which is not registered; register it with its own id: register(id, "
                        + sub.getSimpleName() + ".class)");
            }
            // a non-sealed subtype is open: each value's class is checked when it is encoded
        }
    }

    private static IllegalArgumentException refuse(Pending owner, RecordComponent rc, String typeName, String fix) {
        return new IllegalArgumentException("cannot register record " + owner.type.getName() + " under id " + owner.id
                + ": its component '" + rc.getName() + "' has type " + typeName + ", which cannot be encoded: " + fix);
    }
}
