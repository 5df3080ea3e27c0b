package io.weft.actors.runtime.internal.system;

import io.weft.actors.Channel;
import io.weft.actors.MessageCopier;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The default {@link MessageCopier}: a deep copy through Java serialization. Refs and channels
 * inside the message are kept as they are (a ref is a name, not state).
 */
final class SerializationCopier implements MessageCopier {

    /** Stands for the i-th ref of the message in the serialized form. */
    private record RefSlot(int index) implements Serializable {
    }

    @Override
    public Object copy(Object message) {
        List<Object> refs = new ArrayList<>(0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new RefOut(bytes, refs)) {
            out.writeObject(message);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("message " + message.getClass().getName() + " cannot be copied (MessagePolicy.COPY): it reaches "
                    + e.getMessage() + ", which is not Serializable; make it Serializable or immutable (@Immutable), or set a MessageCopier", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("message " + message.getClass().getName() + " cannot be copied (MessagePolicy.COPY): " + e, e);
        }
        try (ObjectInputStream in = new RefIn(new ByteArrayInputStream(bytes.toByteArray()), refs, message.getClass().getClassLoader())) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalArgumentException("message " + message.getClass().getName() + " cannot be copied (MessagePolicy.COPY): " + e, e);
        }
    }

    @Override
    public String toString() {
        return "SerializationCopier";
    }

    private static final class RefOut extends ObjectOutputStream {
        private final List<Object> refs;

        RefOut(ByteArrayOutputStream out, List<Object> refs) throws IOException {
            super(out);
            this.refs = refs;
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object obj) {
            if (obj instanceof Channel<?>) {
                refs.add(obj);
                return new RefSlot(refs.size() - 1);
            }
            return obj;
        }
    }

    private static final class RefIn extends ObjectInputStream {
        private final List<Object> refs;
        private final ClassLoader loader;

        RefIn(ByteArrayInputStream in, List<Object> refs, ClassLoader loader) throws IOException {
            super(in);
            this.refs = refs;
            this.loader = loader;
            enableResolveObject(true);
        }

        @Override
        protected Object resolveObject(Object obj) {
            return obj instanceof RefSlot slot ? refs.get(slot.index()) : obj;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution
                }
            }
            return super.resolveClass(desc);
        }
    }
}
