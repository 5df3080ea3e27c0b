package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.ActorRef;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A copy-on-write set of subscriber refs: {@link #snapshot()} is one volatile read, add and
 * remove copy the array under a CAS loop (subscriptions change rarely next to publishing).
 */
final class SubscriberSet {

    private static final ActorRef<?>[] EMPTY = new ActorRef<?>[0];
    private final AtomicReference<ActorRef<?>[]> refs = new AtomicReference<>(EMPTY);

    ActorRef<?>[] snapshot() {
        return refs.get();
    }

    boolean add(ActorRef<?> ref) {
        while (true) {
            ActorRef<?>[] now = refs.get();
            if (indexOf(now, ref) >= 0) {
                return false;
            }
            ActorRef<?>[] next = Arrays.copyOf(now, now.length + 1);
            next[now.length] = ref;
            if (refs.compareAndSet(now, next)) {
                return true;
            }
        }
    }

    boolean remove(ActorRef<?> ref) {
        while (true) {
            ActorRef<?>[] now = refs.get();
            int i = indexOf(now, ref);
            if (i < 0) {
                return false;
            }
            ActorRef<?>[] next = new ActorRef<?>[now.length - 1];
            System.arraycopy(now, 0, next, 0, i);
            System.arraycopy(now, i + 1, next, i, now.length - i - 1);
            if (refs.compareAndSet(now, next)) {
                return true;
            }
        }
    }

    private static int indexOf(ActorRef<?>[] refs, ActorRef<?> ref) {
        for (int i = 0; i < refs.length; i++) {
            if (refs[i].equals(ref)) {
                return i;
            }
        }
        return -1;
    }
}
