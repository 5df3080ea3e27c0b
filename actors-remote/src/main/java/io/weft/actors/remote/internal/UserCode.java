package io.weft.actors.remote.internal;

import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;

import java.util.Map;
import java.util.Set;

/** Calls into user code (equals and hashCode of decoded keys) that may throw, reporting a throw as a CodecException. */
final class UserCode {

    private UserCode() {
    }

    static boolean add(Set<Object> set, Object e) {
        try {
            return set.add(e);
        } catch (RuntimeException x) {
            throw failed("a Set element's hashCode or equals", e, x);
        }
    }

    static boolean putNew(Map<Object, Object> map, Object k, Object v) {
        try {
            if (map.containsKey(k)) {
                return false;
            }
            map.put(k, v);
            return true;
        } catch (RuntimeException x) {
            throw failed("a Map key's hashCode or equals", k, x);
        }
    }

    static CodecException failed(String what, Object value, Throwable cause) {
        return new CodecException(Reason.USER_CODE_FAILED,
                what + " threw for a decoded " + value.getClass().getName() + ": " + cause, cause);
    }
}
