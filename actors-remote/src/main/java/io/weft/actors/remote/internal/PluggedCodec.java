package io.weft.actors.remote.internal;

import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecException.Reason;
import io.weft.actors.remote.MessageCodec;

/** A type encoded by a user's {@link MessageCodec}; its failures are reported as CodecExceptions. */
final class PluggedCodec<T> extends TypeCodec {

    private final Class<T> clazz;
    private final MessageCodec<T> codec;

    PluggedCodec(int id, Class<T> type, MessageCodec<T> codec) {
        super(id, type);
        this.clazz = type;
        this.codec = codec;
    }

    @Override
    void write(Object value, Output out) {
        try {
            codec.write(clazz.cast(value), out);
        } catch (CodecException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CodecException(Reason.USER_CODE_FAILED,
                    "the MessageCodec " + codec.getClass().getName() + " of " + describe() + " failed to write a "
                            + value.getClass().getName() + ": " + e, e);
        }
    }

    @Override
    Object read(Input in) {
        int at = in.offset();
        T value;
        try {
            value = codec.read(in);
        } catch (CodecException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CodecException(Reason.USER_CODE_FAILED,
                    "the MessageCodec " + codec.getClass().getName() + " of " + describe()
                            + " refused the payload at offset " + at + ": " + e, e);
        }
        if (!clazz.isInstance(value)) {
            throw new CodecException(Reason.USER_CODE_FAILED,
                    "the MessageCodec " + codec.getClass().getName() + " of " + describe() + " returned "
                            + (value == null ? "null" : "a " + value.getClass().getName()) + "; it must return a " + clazz.getName());
        }
        return value;
    }
}
