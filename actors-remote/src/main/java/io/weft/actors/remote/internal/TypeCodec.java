package io.weft.actors.remote.internal;

/** Writes and reads the payload of the values of one type id; the id itself is written by the caller. */
abstract class TypeCodec {

    final int id;
    final Class<?> type;

    TypeCodec(int id, Class<?> type) {
        this.id = id;
        this.type = type;
    }

    /** Writes the payload of {@code value}, a non-null value of this codec's type. */
    abstract void write(Object value, Output out);

    /** Reads a payload; the result is non-null and of this codec's type, or a CodecException is thrown. */
    abstract Object read(Input in);

    /** How the type is named in messages. */
    String describe() {
        return type.getName() + " (type id " + id + ")";
    }
}
