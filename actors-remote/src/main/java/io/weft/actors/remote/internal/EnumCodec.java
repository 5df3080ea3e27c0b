package io.weft.actors.remote.internal;

/**
 * An enum's codec: the ordinal as an unsigned varint. The ordinal was chosen over the name for
 * size and speed (one byte for up to 128 constants, no string compare); the price is that
 * constants may only be appended. Decoding checks the range.
 */
final class EnumCodec extends TypeCodec {

    private final Object[] constants;

    EnumCodec(int id, Class<?> type) {
        super(id, type);
        this.constants = type.getEnumConstants().clone();
    }

    @Override
    void write(Object value, Output out) {
        out.writeVarInt(((Enum<?>) value).ordinal());
    }

    @Override
    Object read(Input in) {
        int at = in.offset();
        int ordinal = in.readVarInt();
        if (ordinal < 0 || ordinal >= constants.length) {
            throw new io.weft.actors.remote.CodecException(io.weft.actors.remote.CodecException.Reason.MALFORMED,
                    "enum " + describe() + " has " + constants.length + " constants, but the frame has ordinal "
                            + Integer.toUnsignedString(ordinal) + " at offset " + at
                            + "; a newer sender may have appended constants this node does not know");
        }
        return constants[ordinal];
    }
}
