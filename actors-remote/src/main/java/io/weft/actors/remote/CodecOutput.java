package io.weft.actors.remote;

/**
 * Where a {@link MessageCodec} writes a payload. Valid only during the
 * {@link MessageCodec#write(Object, CodecOutput)} call that received it; not thread-safe.
 *
 * <p>Every method may throw {@link CodecException} with reason
 * {@link CodecException.Reason#TOO_LARGE} when the frame would exceed the registry's maximum.
 */
public interface CodecOutput {

    /**
     * Writes a boolean as one byte, 0 or 1.
     *
     * @param value the value
     */
    void writeBoolean(boolean value);

    /**
     * Writes one byte.
     *
     * @param value the value
     */
    void writeByte(byte value);

    /**
     * Writes an int as a zigzag varint (1 to 5 bytes; small magnitudes are short).
     *
     * @param value the value
     */
    void writeInt(int value);

    /**
     * Writes a long as a zigzag varint (1 to 10 bytes).
     *
     * @param value the value
     */
    void writeLong(long value);

    /**
     * Writes a float as its 4 IEEE 754 bytes, big-endian (NaN payloads and -0.0 are kept).
     *
     * @param value the value
     */
    void writeFloat(float value);

    /**
     * Writes a double as its 8 IEEE 754 bytes, big-endian (NaN payloads and -0.0 are kept).
     *
     * @param value the value
     */
    void writeDouble(double value);

    /**
     * Writes a length or count as an unsigned varint; read it back with
     * {@link CodecInput#readLength()}, which bounds it.
     *
     * @param length the length, at least 0
     * @throws IllegalArgumentException if {@code length} is negative
     */
    void writeLength(int length);

    /**
     * Writes a string: its UTF-8 byte length as a varint, then the bytes.
     *
     * @param value the string, not null (write a nullable string with {@link #writeValue(Object)})
     * @throws CodecException with reason {@link CodecException.Reason#MALFORMED} if the string holds
     *     an unpaired surrogate, which UTF-8 cannot carry
     */
    void writeString(String value);

    /**
     * Writes a byte array: its length as a varint, then the bytes.
     *
     * @param value the bytes, not null
     */
    void writeBytes(byte[] value);

    /**
     * Writes a nested value with its type id: null, a built-in type or a registered type.
     *
     * @param value the value, may be null
     * @throws CodecException with reason {@link CodecException.Reason#UNREGISTERED_TYPE} if the
     *     value's type is not encodable, or {@link CodecException.Reason#TOO_DEEP} if nested too deep
     */
    void writeValue(Object value);
}
