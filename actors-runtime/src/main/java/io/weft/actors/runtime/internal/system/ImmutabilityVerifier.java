package io.weft.actors.runtime.internal.system;

import io.weft.actors.Channel;
import io.weft.actors.Immutable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Checks that a message is deeply immutable ({@link io.weft.actors.MessagePolicy#VERIFY_IMMUTABLE}).
 */
final class ImmutabilityVerifier {

    /* design
     * A verdict per class, computed once and cached in a ClassValue (no lock on the send path):
     *   LEAF        immutable whatever it holds: strings, boxes, enums, refs and channels, java.time,
     *               @Immutable types, classes whose fields are all final and primitive.
     *   MUTABLE     never immutable; the verdict carries the reason, naming the class and field.
     *   FIELDS      all fields final; the reference fields' values are checked in turn.
     *   COLLECTION  the JDK's unmodifiable collections (List.of, Set.of, copyOf, Stream.toList,
     *   / MAP       Collections.empty*, singleton*): elements (keys and values) are checked.
     * Checking a value walks its graph along FIELDS and COLLECTION verdicts only, so a message of
     * leaves costs one ClassValue lookup. Depth is bounded (immutable graphs are acyclic but for
     * constructors leaking `this`).
     */

    private static final int MAX_DEPTH = 64;

    private enum Kind { LEAF, MUTABLE, FIELDS, COLLECTION, MAP, OPTIONAL }

    private record Verdict(Kind kind, String reason, Field[] fields) {
    }

    private static final Set<Class<?>> LEAVES = Set.of(String.class, Boolean.class, Character.class, Byte.class, Short.class,
            Integer.class, Long.class, Float.class, Double.class, BigInteger.class, BigDecimal.class, UUID.class, Class.class);

    private static final ClassValue<Verdict> VERDICTS = new ClassValue<>() {
        @Override
        protected Verdict computeValue(Class<?> type) {
            return judge(type);
        }
    };

    /** @return whether values of {@code type} are immutable whatever they hold (no walk needed) */
    static boolean isLeaf(Class<?> type) {
        return VERDICTS.get(type).kind == Kind.LEAF;
    }

    void verify(Object message) {
        String problem = check(message, 0);
        if (problem != null) {
            throw new IllegalArgumentException("message is not deeply immutable (MessagePolicy.VERIFY_IMMUTABLE): "
                    + message.getClass().getName() + problem);
        }
    }

    /** @return whether {@code value} passes {@link #verify}; never throws for a mutable value */
    static boolean isDeeplyImmutable(Object value) {
        return check(value, 0) == null;
    }

    /**
     * @return null if {@code value} is deeply immutable, else the path from it to the offending part
     *     and the reason (built only on failure, so a passing check allocates nothing)
     */
    private static String check(Object value, int depth) {
        if (value == null) {
            return null;
        }
        Class<?> type = value.getClass();
        Verdict v = VERDICTS.get(type);
        switch (v.kind) {
            case LEAF:
                return null;
            case MUTABLE:
                return " holds a " + type.getName() + ", which " + v.reason;
            default:
                break;
        }
        if (depth >= MAX_DEPTH) {
            return " is nested more than " + MAX_DEPTH + " deep";
        }
        switch (v.kind) {
            case FIELDS -> {
                for (Field f : v.fields) {
                    Object field;
                    try {
                        field = f.get(value);
                    } catch (IllegalAccessException e) {
                        return "." + f.getName() + " cannot be inspected: " + e.getMessage();
                    }
                    String p = check(field, depth + 1);
                    if (p != null) {
                        return "." + f.getName() + " (field " + f.getDeclaringClass().getName() + "." + f.getName() + ")" + p;
                    }
                }
                return null;
            }
            case COLLECTION -> {
                int i = 0;
                for (Object e : (Collection<?>) value) {
                    String p = check(e, depth + 1);
                    if (p != null) {
                        return "[" + i + "]" + p;
                    }
                    i++;
                }
                return null;
            }
            case MAP -> {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                    String p = check(e.getKey(), depth + 1);
                    if (p == null) {
                        p = check(e.getValue(), depth + 1);
                    }
                    if (p != null) {
                        return "[" + e.getKey() + "]" + p;
                    }
                }
                return null;
            }
            case OPTIONAL -> {
                String p = check(((Optional<?>) value).orElse(null), depth + 1);
                return p == null ? null : ".get()" + p;
            }
            default -> throw new AssertionError(v.kind);
        }
    }

    private static Verdict leaf() {
        return new Verdict(Kind.LEAF, null, null);
    }

    private static Verdict mutable(String reason) {
        return new Verdict(Kind.MUTABLE, reason, null);
    }

    private static Verdict judge(Class<?> type) {
        if (type.isPrimitive() || LEAVES.contains(type) || type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum())
                || type.isAnnotationPresent(Immutable.class) || Channel.class.isAssignableFrom(type)
                || "java.time".equals(type.getPackageName())) {
            return leaf();
        }
        if (type.isArray()) {
            return mutable("is an array (arrays are always mutable; use List.of or List.copyOf)");
        }
        if (type == Optional.class) {
            return new Verdict(Kind.OPTIONAL, null, null);
        }
        String name = type.getName();
        if (name.startsWith("java.util.ImmutableCollections$") || name.equals("java.util.Collections$EmptyList")
                || name.equals("java.util.Collections$EmptySet") || name.equals("java.util.Collections$EmptyMap")
                || name.equals("java.util.Collections$SingletonList") || name.equals("java.util.Collections$SingletonSet")
                || name.equals("java.util.Collections$SingletonMap") || name.equals("java.util.KeyValueHolder")) {
            if (Map.class.isAssignableFrom(type)) {
                return new Verdict(Kind.MAP, null, null);
            }
            if (Collection.class.isAssignableFrom(type)) {
                return new Verdict(Kind.COLLECTION, null, null);
            }
        }
        if (name.startsWith("java.util.Collections$Unmodifiable")) {
            return mutable("is an unmodifiable view of a collection that may still change; use List.copyOf, Set.copyOf or Map.copyOf");
        }
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
            return mutable("is not known to be immutable (a mutable JDK class, or one Weft does not vouch for)");
        }
        List<Field> refs = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                if (!Modifier.isFinal(f.getModifiers())) {
                    return mutable("has a non-final field " + c.getName() + "." + f.getName()
                            + " (make it final, or declare the class @Immutable)");
                }
                if (f.getType().isPrimitive()) {
                    continue;
                }
                if (!f.trySetAccessible()) {
                    return mutable("cannot be inspected: field " + c.getName() + "." + f.getName()
                            + " is not accessible to Weft (open its package to io.weft.actors.runtime, or declare the class @Immutable)");
                }
                refs.add(f);
            }
        }
        return refs.isEmpty() ? leaf() : new Verdict(Kind.FIELDS, null, refs.toArray(new Field[0]));
    }
}
