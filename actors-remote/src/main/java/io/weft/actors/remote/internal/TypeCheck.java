package io.weft.actors.remote.internal;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * What a record component's declared type allows, checked on every value a record is built from
 * or written with: the erased class, and the element types of List, Set, Map and Optional.
 */
abstract class TypeCheck {

    /* design
     * Built once per record component at registration from the component's generic type, so a
     * frame cannot make a record hold a List<String> where it declared a List<Shape> (which would
     * be heap pollution, a ClassCastException later in the actor). Type arguments of other generic
     * types are erased and not checked; their own record components are checked when they are
     * built. null always passes: nullness is the record constructor's business.
     */

    /** Accepts anything; used for Object and type variables without a bound. */
    static final TypeCheck ANY = new TypeCheck() {
        @Override
        boolean accepts(Object value) {
            return true;
        }
    };

    /** Whether {@code value} (not null) fits. */
    abstract boolean accepts(Object value);

    /** Whether {@code value}, possibly null, fits. */
    final boolean allows(Object value) {
        return value == null || accepts(value);
    }

    static TypeCheck instanceOf(Class<?> c) {
        return c == Object.class ? ANY : new InstanceOf(c);
    }

    static TypeCheck collection(Class<?> raw, TypeCheck element) {
        return new Elements(raw, element);
    }

    static TypeCheck map(TypeCheck key, TypeCheck value) {
        return new Entries(key, value);
    }

    static TypeCheck optional(TypeCheck element) {
        return new Present(element);
    }

    private static final class InstanceOf extends TypeCheck {
        private final Class<?> type;

        InstanceOf(Class<?> type) {
            this.type = type;
        }

        @Override
        boolean accepts(Object value) {
            return type.isInstance(value);
        }
    }

    private static final class Elements extends TypeCheck {
        private final Class<?> raw;
        private final TypeCheck element;

        Elements(Class<?> raw, TypeCheck element) {
            this.raw = raw;
            this.element = element;
        }

        @Override
        boolean accepts(Object value) {
            if (!raw.isInstance(value)) {
                return false;
            }
            if (element != ANY) {
                for (Object e : (Collection<?>) value) {
                    if (!element.allows(e)) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    private static final class Entries extends TypeCheck {
        private final TypeCheck key;
        private final TypeCheck value;

        Entries(TypeCheck key, TypeCheck value) {
            this.key = key;
            this.value = value;
        }

        @Override
        boolean accepts(Object v) {
            if (!(v instanceof Map<?, ?> m)) {
                return false;
            }
            if (key != ANY || value != ANY) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!key.allows(e.getKey()) || !value.allows(e.getValue())) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    private static final class Present extends TypeCheck {
        private final TypeCheck element;

        Present(TypeCheck element) {
            this.element = element;
        }

        @Override
        boolean accepts(Object value) {
            return value instanceof Optional<?> o && element.allows(o.orElse(null));
        }
    }
}
