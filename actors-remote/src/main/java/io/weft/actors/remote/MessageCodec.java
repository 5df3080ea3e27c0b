package io.weft.actors.remote;

/**
 * Writes and reads values of one registered type, for types the built-in record and enum codecs
 * do not handle (a protobuf message, a Jackson-mapped class, a hand-written format). Register one
 * with {@link CodecRegistry.Builder#register(int, Class, MessageCodec)}.
 *
 * <p>The codec writes only the value's payload; the registry writes the type id before it. What
 * {@link #read(CodecInput)} reads must be exactly what {@link #write(Object, CodecOutput)} wrote.
 * {@link CodecInput} checks every read against the frame's bounds and limits, so a codec that
 * reads only through it cannot read past the frame or allocate more than the frame can fill.
 *
 * <p>Thread-safety: a registry is shared, so a codec's methods may be called from several threads
 * at once; a codec should be stateless or thread-safe.
 *
 * @param <T> the type this codec writes and reads
 */
public interface MessageCodec<T> {

    /**
     * Writes the payload of {@code value}.
     *
     * @param value the value, not null
     * @param out where to write, valid only during this call
     * @throws CodecException if a nested value cannot be encoded
     * @throws RuntimeException if the value cannot be written; the registry reports it as a
     *     {@link CodecException} with reason {@link CodecException.Reason#USER_CODE_FAILED}
     */
    void write(T value, CodecOutput out);

    /**
     * Reads a payload written by {@link #write(Object, CodecOutput)}.
     *
     * @param in where to read, valid only during this call
     * @return the value, not null, an instance of the registered type
     * @throws CodecException if the input is truncated or malformed
     * @throws RuntimeException if the payload is refused; the registry reports it as a
     *     {@link CodecException} with reason {@link CodecException.Reason#USER_CODE_FAILED}
     */
    T read(CodecInput in);
}
