package io.weft.actors.remote;

/**
 * Where a {@link MessageCodec} reads a payload. Valid only during the
 * {@link MessageCodec#read(CodecInput)} call that received it; not thread-safe.
 *
 * <p>Every read is checked against the bytes left in the frame: reading past the end throws
 * {@link CodecException} with reason {@link CodecException.Reason#TRUNCATED}, never an
 * {@link IndexOutOfBoundsException}.
 */
public interface CodecInput {

    /**
     * Reads a boolean written by {@link CodecOutput#writeBoolean(boolean)}.
     *
     * @return the value
     * @throws CodecException if truncated, or the byte is neither 0 nor 1
     */
    boolean readBoolean();

    /**
     * Reads one byte.
     *
     * @return the value
     * @throws CodecException if truncated
     */
    byte readByte();

    /**
     * Reads an int written by {@link CodecOutput#writeInt(int)}.
     *
     * @return the value
     * @throws CodecException if truncated or the varint is longer than 5 bytes
     */
    int readInt();

    /**
     * Reads a long written by {@link CodecOutput#writeLong(long)}.
     *
     * @return the value
     * @throws CodecException if truncated or the varint is longer than 10 bytes
     */
    long readLong();

    /**
     * Reads a float written by {@link CodecOutput#writeFloat(float)}.
     *
     * @return the value
     * @throws CodecException if truncated
     */
    float readFloat();

    /**
     * Reads a double written by {@link CodecOutput#writeDouble(double)}.
     *
     * @return the value
     * @throws CodecException if truncated
     */
    double readDouble();

    /**
     * Reads a length or count written by {@link CodecOutput#writeLength(int)}, bounded so that a
     * loop reading that many items of at least one byte each cannot run past the frame.
     *
     * @return the length, at least 0 and at most the bytes left in the frame
     * @throws CodecException if truncated, if the length exceeds the bytes left
     *     ({@link CodecException.Reason#LENGTH_BEYOND_INPUT}) or the registry's maximum length
     *     ({@link CodecException.Reason#TOO_LARGE})
     */
    int readLength();

    /**
     * Reads a string written by {@link CodecOutput#writeString(String)}.
     *
     * @return the string, not null
     * @throws CodecException if truncated, too long or not well-formed UTF-8
     */
    String readString();

    /**
     * Reads a byte array written by {@link CodecOutput#writeBytes(byte[])}.
     *
     * @return a new array, not null
     * @throws CodecException if truncated or too long
     */
    byte[] readBytes();

    /**
     * Reads a nested value written by {@link CodecOutput#writeValue(Object)}.
     *
     * @return the value, may be null
     * @throws CodecException if the type id is unknown, the value is malformed or nested too deep
     */
    Object readValue();

    /**
     * Reads a nested value and checks its type.
     *
     * @param <T> the expected type
     * @param type the expected type; null values pass
     * @return the value, may be null
     * @throws CodecException if {@link #readValue()} does, or with reason
     *     {@link CodecException.Reason#MALFORMED} if the value is not a {@code type}
     */
    <T> T readValue(Class<T> type);

    /**
     * The number of bytes left in the frame.
     *
     * @return the count, at least 0
     */
    int remaining();
}
