package io.weft.actors.remote;

import java.util.Objects;

/**
 * A refusal by the codec: a frame that cannot be decoded, or a value that cannot be encoded.
 *
 * <p>Every refusal of {@link CodecRegistry#encode(Object)} and
 * {@link CodecRegistry#decode(byte[], int, int, RefResolver)} is a {@code CodecException} with one
 * {@link Reason}, so a transport can drop the frame, count the drop under its reason and go on:
 * decoding garbage never throws anything else (short of an {@link Error} from user code, such as a
 * record constructor, or from the JVM). The message names the type id, the type or the offset, and
 * what to do.
 *
 * <p>Instances are immutable and may be shared between threads.
 */
public final class CodecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a frame or a value was refused; one counter per reason is enough to see a fault. */
    public enum Reason {
        /** The frame names a type id the registry does not hold; no class is looked up or loaded. */
        UNKNOWN_TYPE_ID,
        /** The frame ends inside a value. */
        TRUNCATED,
        /** A length or size in the frame claims more bytes or elements than the frame has left. */
        LENGTH_BEYOND_INPUT,
        /** A frame, string, byte array or collection is larger than the registry's configured maximum. */
        TOO_LARGE,
        /** Values are nested deeper than the registry's maximum depth. */
        TOO_DEEP,
        /**
         * A value in the frame is malformed for its type: an enum ordinal out of range, a boolean
         * byte other than 0 or 1, malformed UTF-8, an over-long varint, a duplicate set element or
         * map key, or a value whose type does not fit the record component or collection it is in.
         */
        MALFORMED,
        /** Bytes are left after the top-level value. */
        TRAILING_BYTES,
        /** At encode time: the value's class is not registered and is not a built-in type. */
        UNREGISTERED_TYPE,
        /** A record constructor or a plugged {@link MessageCodec} threw while reading or writing. */
        USER_CODE_FAILED,
        /** An actor ref's address could not be resolved: no resolver was given, or it refused. */
        UNRESOLVED_REF
    }

    private final Reason reason;

    /**
     * Creates a refusal.
     *
     * @param reason why, not null
     * @param message what was refused and what to do, not null
     */
    public CodecException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Creates a refusal caused by another exception, such as one thrown by a record constructor.
     *
     * @param reason why, not null
     * @param message what was refused and what to do, not null
     * @param cause the exception that caused the refusal
     */
    public CodecException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Why the frame or value was refused.
     *
     * @return the reason, never null
     */
    public Reason reason() {
        return reason;
    }
}
