package io.weft.actors.remote;

import io.weft.actors.remote.internal.RegistryBuilder;

import java.lang.invoke.MethodHandles;

/**
 * Weft's safe binary codec: an immutable allow-list of types, each with a stable numeric id, that
 * encodes messages to bytes and decodes bytes back to messages.
 *
 * <p>Encodable values: {@code null}; the built-in types {@link String}, the eight primitives'
 * boxes, {@code byte[]}, {@link java.util.List}, {@link java.util.Set}, {@link java.util.Map},
 * {@link java.util.Optional} and {@link io.weft.actors.ActorRef} (sent as its address); and the
 * registered types: records, enums, and any class with a plugged {@link MessageCodec}. A sealed
 * interface is encodable through its registered record implementations.
 *
 * <p>Type ids: built-in types use the reserved ids {@value #MIN_RESERVED_ID} to
 * {@value #MAX_RESERVED_ID}; user types take ids from {@value #MIN_USER_ID} to
 * {@value #MAX_USER_ID}, which fit in at most two bytes on the wire. An id, once used for a type,
 * must keep meaning that type on every node that talks to each other.
 *
 * <p>Safety: decoding looks type ids up in this registry's table only. A frame naming an id that
 * was not registered is refused before any class is looked up, loaded or initialized; there is no
 * Java serialization, no reflection by name and no class name on the wire. Records are built
 * through their canonical constructor, found at registration through the caller's
 * {@link MethodHandles.Lookup}, so their validation runs on decoded values too. Sizes read from
 * the frame are checked against the bytes left before anything is allocated.
 *
 * <p>Thread-safety: a built registry is immutable and may be used from any number of threads at
 * once; the {@link Builder} is not thread-safe.
 */
public interface CodecRegistry {

    /** The lowest reserved id (null). Id 0 is never valid, so a zeroed frame is refused. */
    int MIN_RESERVED_ID = 1;

    /** The highest id reserved for built-in types. */
    int MAX_RESERVED_ID = 63;

    /** The lowest id a user type may take. */
    int MIN_USER_ID = 64;

    /** The highest id a user type may take: the largest value a two-byte varint holds. */
    int MAX_USER_ID = 16_383;

    /**
     * Starts a registry whose records are accessed through {@code lookup}.
     *
     * <p>Pass {@code MethodHandles.lookup()} from a class that can access the records you register
     * (typically one in the records' package or module); the registry needs no {@code opens} and
     * uses no {@code setAccessible} or {@code Unsafe}.
     *
     * @param lookup the lookup through which record constructors and accessors are found, not null
     * @return a new builder
     * @throws NullPointerException if {@code lookup} is null
     */
    static Builder builder(MethodHandles.Lookup lookup) {
        return new RegistryBuilder(lookup);
    }

    /**
     * Encodes a message to a new array holding one frame: the message as a tagged value.
     *
     * @param message the message, may be null
     * @return the frame
     * @throws CodecException if the message, or a value nested in it, has a type that is neither
     *     built-in nor registered ({@link CodecException.Reason#UNREGISTERED_TYPE}, naming the
     *     class and how to register it), is nested too deep, makes the frame too large, or a
     *     plugged codec fails
     */
    byte[] encode(Object message);

    /**
     * Encodes a message and appends the frame to {@code buffer}. On failure the buffer is left as
     * it was.
     *
     * @param message the message, may be null
     * @param buffer the buffer to append to, not null
     * @throws CodecException as {@link #encode(Object)}
     */
    void encode(Object message, FrameBuffer buffer);

    /**
     * Decodes one frame.
     *
     * <p>Every refusal is a {@link CodecException}: an unknown type id (the message names it),
     * truncated input, a length beyond the bytes left, nesting deeper than the maximum, a string,
     * byte array or collection longer than the maximum, an enum ordinal out of range, a value that
     * does not fit its record component, trailing bytes after the value, a ref that cannot be
     * resolved, or a record constructor or plugged codec that refuses the decoded values.
     *
     * <p>Decoded lists, sets and maps are unmodifiable, keep the encoded order and hold nulls if
     * the encoded ones did: a list is a random-access list, a set iterates like a
     * {@link java.util.LinkedHashSet}, a map like a {@link java.util.LinkedHashMap}.
     *
     * @param bytes the array holding the frame, not null
     * @param offset where the frame starts
     * @param length the frame's length in bytes; the frame must hold exactly one value
     * @param refs resolves actor refs' addresses; may be null if frames hold no refs (a frame
     *     with a ref is then refused)
     * @return the message, null or an instance of a built-in or registered type
     * @throws CodecException if the frame is refused
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} do not lie within
     *     {@code bytes} (a caller's error, not the frame's)
     */
    Object decode(byte[] bytes, int offset, int length, RefResolver refs);

    /**
     * Decodes a frame that fills the whole array; see {@link #decode(byte[], int, int, RefResolver)}.
     *
     * @param frame the frame, not null
     * @param refs resolves actor refs' addresses; may be null if frames hold no refs
     * @return the message
     * @throws CodecException if the frame is refused
     */
    default Object decode(byte[] frame, RefResolver refs) {
        return decode(frame, 0, frame.length, refs);
    }

    /**
     * The id of a registered or built-in type.
     *
     * @param type the type, not null
     * @return its id, or -1 if the type is neither registered nor built-in (for the built-in
     *     interfaces {@code List}, {@code Set}, {@code Map} and {@code ActorRef}, pass the
     *     interface)
     */
    int idOf(Class<?> type);

    /**
     * Builds a {@link CodecRegistry}. Not thread-safe; build once, at startup, and share the
     * registry.
     *
     * <p>{@link #register(int, Class)} checks what it can at once (the id's range, duplicate ids
     * and types, the kind of class, access through the lookup); {@link #build()} checks what needs
     * all registrations (every record component's type is encodable, every sealed interface used
     * as a component has its records registered). Each refusal is an
     * {@link IllegalArgumentException} that names the type, the id and the fix.
     */
    interface Builder {

        /**
         * Registers a record or an enum under {@code id}, encoded by the built-in codecs: a
         * record as its components in declaration order, an enum as its ordinal.
         *
         * <p>An enum's ordinal is what travels: add new constants at the end only, and never
         * remove or reorder constants while older nodes may still talk to newer ones.
         *
         * @param id the type's id, from {@link #MIN_USER_ID} to {@link #MAX_USER_ID}
         * @param type a record or enum class, not null
         * @return this builder
         * @throws IllegalArgumentException if the id is out of range or taken, the type is
         *     already registered or built-in, the type is neither a record nor an enum (register a
         *     {@link MessageCodec} for it), or the lookup cannot access the record's canonical
         *     constructor or accessors
         */
        Builder register(int id, Class<?> type);

        /**
         * Registers a type under {@code id}, encoded by a plugged codec.
         *
         * <p>The codec encodes instances of exactly {@code type}; if {@code type} is an interface
         * or an abstract class, it also encodes instances of its subclasses that have no
         * registration of their own (the first such registration, in registration order, wins).
         *
         * @param <T> the type
         * @param id the type's id, from {@link #MIN_USER_ID} to {@link #MAX_USER_ID}
         * @param type the type, not null
         * @param codec the codec, not null
         * @return this builder
         * @throws IllegalArgumentException if the id is out of range or taken, or the type is
         *     already registered or built-in
         */
        <T> Builder register(int id, Class<T> type, MessageCodec<T> codec);

        /**
         * Sets the largest frame, in bytes, that is encoded or decoded. Default 16 MiB.
         *
         * @param bytes at least 16
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is less than 16
         */
        Builder maxFrameBytes(int bytes);

        /**
         * Sets the largest string (in UTF-8 bytes), byte array, or collection (in elements; a map
         * in entries) that is encoded or decoded. Default 8 MiB.
         *
         * @param length at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code length} is less than 1
         */
        Builder maxLength(int length);

        /**
         * Sets how deep values may nest: the top-level message is depth 1, each tagged value
         * inside it one more. Deeper frames are refused on both sides, which also stops a list
         * that contains itself. Default 64.
         *
         * @param depth from 1 to 256
         * @return this builder
         * @throws IllegalArgumentException if {@code depth} is out of range
         */
        Builder maxDepth(int depth);

        /**
         * Checks all registrations together and builds the registry. The builder must not be used
         * afterwards.
         *
         * @return an immutable, thread-safe registry
         * @throws IllegalArgumentException if a record component's type is neither primitive,
         *     built-in, registered, nor an interface or abstract class (checked at encode time),
         *     or a sealed interface used as a component has a record implementation that is not
         *     registered; the message names the record, the component, its type and the fix
         * @throws IllegalStateException if called twice
         */
        CodecRegistry build();
    }
}
