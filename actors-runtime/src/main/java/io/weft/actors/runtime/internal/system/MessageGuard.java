package io.weft.actors.runtime.internal.system;

import io.weft.actors.MessageCopier;
import io.weft.actors.MessagePolicy;

/**
 * Safe messaging at {@code tell} (Karmani et al. 2009, §3.1): checks or copies each message according to the
 * system's {@link MessagePolicy}. {@link MessagePolicy#BY_REFERENCE} has no guard at all.
 */
abstract class MessageGuard {

    /** @return the guard of the policy, or null for by-reference */
    static MessageGuard of(MessagePolicy policy, MessageCopier copier) {
        return switch (policy) {
            case BY_REFERENCE -> null;
            case VERIFY_IMMUTABLE -> new Verify(new ImmutabilityVerifier());
            case COPY -> new Copy(copier != null ? copier : new SerializationCopier());
        };
    }

    /**
     * @param message not null
     * @return the message to enqueue
     * @throws IllegalArgumentException if the message may not be sent under the policy
     */
    abstract Object apply(Object message);

    private static final class Verify extends MessageGuard {
        private final ImmutabilityVerifier verifier;

        Verify(ImmutabilityVerifier verifier) {
            this.verifier = verifier;
        }

        @Override
        Object apply(Object message) {
            verifier.verify(message);
            return message;
        }
    }

    private static final class Copy extends MessageGuard {
        private final MessageCopier copier;

        Copy(MessageCopier copier) {
            this.copier = copier;
        }

        @Override
        Object apply(Object message) {
            if (ImmutabilityVerifier.isDeeplyImmutable(message)) {
                return message; // a copy could not differ from it
            }
            Object copy = copier.copy(message);
            if (copy == null) {
                throw new IllegalStateException("message copier " + copier + " returned null for " + message.getClass().getName());
            }
            return copy;
        }
    }
}
