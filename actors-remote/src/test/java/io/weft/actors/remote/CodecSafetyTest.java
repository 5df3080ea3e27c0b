package io.weft.actors.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.weft.actors.remote.CodecException.Reason;
import io.weft.actors.remote.Fixtures.Circle;
import io.weft.actors.remote.Fixtures.Color;
import io.weft.actors.remote.Fixtures.FakeRef;
import io.weft.actors.remote.Fixtures.FakeResolver;
import io.weft.actors.remote.Fixtures.Holder;
import io.weft.actors.remote.Fixtures.Positive;
import io.weft.actors.remote.Fixtures.Square;

import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class CodecSafetyTest {

    static final AtomicBoolean POISON_INITIALIZED = new AtomicBoolean();

    /** Never registered: nothing a frame says may initialize it. */
    record Poison(int x) {
        static {
            POISON_INITIALIZED.set(true);
        }
    }

    private final CodecRegistry registry = Fixtures.REGISTRY;
    private final FakeResolver resolver = new FakeResolver();

    private CodecException refused(byte[] frame, Reason reason) {
        CodecException x = assertThrows(CodecException.class, () -> registry.decode(frame, resolver),
                () -> "frame " + hex(frame));
        assertEquals(reason, x.reason(), x::getMessage);
        return x;
    }

    private static String hex(byte[] frame) {
        return frame.length <= 64 ? HexFormat.of().formatHex(frame)
                : HexFormat.of().formatHex(frame, 0, 64) + "... (" + frame.length + " bytes)";
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void anUnknownTypeIdIsRefusedWithTheIdAndNoClassIsInitialized() {
        // 99 is no registered id; 0x80 0x7F is id 16256, two bytes
        assertTrue(refused(bytes(99, 2), Reason.UNKNOWN_TYPE_ID).getMessage().contains("unknown type id 99"));
        assertTrue(refused(bytes(0x80, 0x7F, 0), Reason.UNKNOWN_TYPE_ID).getMessage().contains("unknown type id 16256"));
        assertTrue(refused(bytes(0), Reason.UNKNOWN_TYPE_ID).getMessage().contains("unknown type id 0"));
        assertTrue(refused(bytes(40), Reason.UNKNOWN_TYPE_ID).getMessage().contains("unknown type id 40"));
        refused(bytes(0xFF, 0xFF, 0xFF, 0xFF, 0x0F), Reason.UNKNOWN_TYPE_ID);
        // nested: a list whose element names an unknown id
        assertTrue(refused(bytes(12, 1, 99), Reason.UNKNOWN_TYPE_ID).getMessage().contains("offset 2"));

        // the poison class's name on the wire is just a string; its would-be ids are just numbers
        byte[] name = Poison.class.getName().getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[name.length + 2];
        frame[0] = 10;
        frame[1] = (byte) name.length;
        System.arraycopy(name, 0, frame, 2, name.length);
        assertEquals(Poison.class.getName(), registry.decode(frame, null));
        for (int id = 0; id < 300; id++) {
            byte[] f = id < 128 ? bytes(id, 2) : bytes(0x80 | (id & 0x7F), id >>> 7, 2);
            try {
                registry.decode(f, resolver);
            } catch (CodecException expected) {
                // refused or not, it must not have touched the poison class
            }
        }
        assertFalse(POISON_INITIALIZED.get(), "decoding must never initialize an unregistered class");
        CodecException x = assertThrows(CodecException.class, () -> registry.encode(new Poison(1)));
        assertEquals(Reason.UNREGISTERED_TYPE, x.reason());
    }

    @Test
    void everyCutOfAValidFrameIsRefused() {
        int cuts = 0;
        for (Object sample : Fixtures.samples()) {
            byte[] frame = registry.encode(sample);
            byte[] padded = new byte[frame.length + 8];
            Arrays.fill(padded, (byte) 0x41);
            System.arraycopy(frame, 0, padded, 4, frame.length);
            registry.decode(padded, 4, frame.length, resolver);
            for (int cut = 0; cut < frame.length; cut++) {
                int length = cut;
                CodecException x = assertThrows(CodecException.class, () -> registry.decode(padded, 4, length, resolver),
                        () -> sample + " cut at " + length);
                assertTrue(x.reason() == Reason.TRUNCATED || x.reason() == Reason.LENGTH_BEYOND_INPUT,
                        () -> sample + " cut at " + length + ": " + x.reason() + " " + x.getMessage());
                cuts++;
            }
        }
        assertTrue(cuts > 200, "cuts: " + cuts);
    }

    @Test
    void claimedSizesBeyondTheFrameFailBeforeAllocating() {
        // a list, a string, a byte[] and a map claiming 2^31 - 1 elements in a few bytes
        refused(bytes(12, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 1), Reason.LENGTH_BEYOND_INPUT);
        refused(bytes(10, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 'a'), Reason.LENGTH_BEYOND_INPUT);
        refused(bytes(11, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 'a'), Reason.LENGTH_BEYOND_INPUT);
        refused(bytes(14, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 1), Reason.LENGTH_BEYOND_INPUT);
        // a size of 2^32 - 1 does not fit an int: refused, not wrapped to -1
        refused(bytes(12, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F), Reason.LENGTH_BEYOND_INPUT);
        // nested lists each claiming the rest of a 1 MiB frame allocate nothing large
        byte[] frame = new byte[1 << 20];
        int pos = 0;
        for (int level = 0; level < 60; level++) {
            frame[pos++] = 12;
            int claim = frame.length - pos - 4;
            while ((claim & ~0x7F) != 0) {
                frame[pos++] = (byte) ((claim & 0x7F) | 0x80);
                claim >>>= 7;
            }
            frame[pos++] = (byte) claim;
        }
        // the rest are zero bytes: type id 0, unknown
        refused(frame, Reason.UNKNOWN_TYPE_ID);
    }

    @Test
    void limitsAreEnforcedOnBothSides() {
        CodecRegistry small = Fixtures.builder().maxLength(10).maxFrameBytes(64).maxDepth(8).build();
        List<Integer> eleven = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.encode(eleven)).reason());
        CodecException x = assertThrows(CodecException.class, () -> small.decode(registry.encode(eleven), null));
        assertEquals(Reason.TOO_LARGE, x.reason());
        assertTrue(x.getMessage().contains("maxLength 10"), x.getMessage());
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.encode("x".repeat(11))).reason());
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.decode(registry.encode("y".repeat(11)), null)).reason());
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.encode(new byte[11])).reason());
        // frame size: encode refuses to grow past it, decode refuses a longer frame unread
        List<String> big = List.of("0123456789", "0123456789", "0123456789", "0123456789", "0123456789", "0123456789");
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.encode(big)).reason());
        assertEquals(Reason.TOO_LARGE, assertThrows(CodecException.class, () -> small.decode(new byte[65], null)).reason());
        // depth: 8 levels pass, 9 are refused on both sides
        Object eight = nest(8);
        assertEquals(eight, small.decode(small.encode(eight), null));
        Object nine = nest(9);
        assertEquals(Reason.TOO_DEEP, assertThrows(CodecException.class, () -> small.encode(nine)).reason());
        assertEquals(Reason.TOO_DEEP, assertThrows(CodecException.class, () -> small.decode(registry.encode(nine), null)).reason());
    }

    private static Object nest(int depth) {
        Object v = 1;
        for (int i = 1; i < depth; i++) {
            v = List.of(v);
        }
        return v;
    }

    @Test
    void deepFramesAndSelfContainingValuesDoNotOverflowTheStack() {
        byte[] deep = new byte[100_000];
        for (int i = 0; i < deep.length; i++) {
            deep[i] = 15; // Optional of Optional of ...
        }
        refused(deep, Reason.TOO_DEEP);
        List<Object> selfContaining = new ArrayList<>();
        selfContaining.add(selfContaining);
        CodecException x = assertThrows(CodecException.class, () -> registry.encode(selfContaining));
        assertEquals(Reason.TOO_DEEP, x.reason());
        assertTrue(x.getMessage().contains("maxDepth 64"), x.getMessage());
    }

    @Test
    void malformedValuesAreRefused() {
        assertTrue(refused(bytes(67, 3), Reason.MALFORMED).getMessage().contains("ordinal 3"));
        refused(bytes(67, 0x80, 0x80, 0x80, 0x80, 0x08), Reason.MALFORMED); // ordinal 2^31: negative as an int
        refused(bytes(2, 2), Reason.MALFORMED); // boolean 2
        refused(bytes(6, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F), Reason.MALFORMED); // varint over 32 bits
        refused(bytes(7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02), Reason.MALFORMED);
        refused(bytes(4, 0x80, 0x80, 0x04), Reason.MALFORMED); // short out of range
        refused(bytes(5, 0x80, 0x80, 0x04), Reason.MALFORMED); // char out of range
        refused(bytes(10, 2, 0xC3, 0x28), Reason.MALFORMED); // malformed UTF-8
        refused(bytes(10, 3, 0xED, 0xA0, 0x80), Reason.MALFORMED); // an encoded surrogate
        refused(bytes(13, 2, 6, 2, 6, 2), Reason.MALFORMED); // a set with 1 twice
        refused(bytes(14, 2, 6, 2, 1, 6, 2, 1), Reason.MALFORMED); // a map with key 1 twice
        // a record component declared List<Shape> holding a String
        assertTrue(refused(bytes(73, 12, 1, 10, 1, 'a'), Reason.MALFORMED).getMessage().contains("'shapes'"));
        // a record component declared String holding an Integer
        refused(bytes(65, 2, 6, 2), Reason.MALFORMED);
        // the encoder refuses what the decoder would: a List<Shape> holding a String through an unchecked cast
        @SuppressWarnings("unchecked")
        List<Fixtures.Shape> polluted = (List<Fixtures.Shape>) (List<?>) List.of("not a shape");
        CodecException x = assertThrows(CodecException.class, () -> registry.encode(new Holder(polluted)));
        assertEquals(Reason.MALFORMED, x.reason());
        assertTrue(x.getMessage().contains("'shapes'"), x.getMessage());
        // trailing bytes
        refused(bytes(6, 2, 0), Reason.TRAILING_BYTES);
        refused(new byte[0], Reason.TRUNCATED);
        // an unpaired surrogate cannot be encoded (UTF-8 cannot carry it)
        assertEquals(Reason.MALFORMED, assertThrows(CodecException.class, () -> registry.encode("a\uD800b")).reason());
        assertEquals(Reason.MALFORMED, assertThrows(CodecException.class, () -> registry.encode("\uDC00")).reason());
    }

    @Test
    void userCodeFailuresBecomeCodecExceptions() {
        // the record's own validation runs on decoded values
        CodecException x = refused(bytes(72, 1), Reason.USER_CODE_FAILED); // Positive(-1)
        assertTrue(x.getMessage().contains("n must be positive"), x.getMessage());
        assertEquals(new Positive(1), registry.decode(bytes(72, 2), null));
        // a plugged codec that throws or returns the wrong thing
        CodecRegistry broken = CodecRegistry.builder(MethodHandles.lookup())
                .register(64, Circle.class, new MessageCodec<>() {
                    @Override
                    public void write(Circle value, CodecOutput out) {
                        throw new IllegalStateException("cannot write");
                    }

                    @Override
                    public Circle read(CodecInput in) {
                        return in.readBoolean() ? null : new Circle((Integer) List.of().get(in.readInt()));
                    }
                }).build();
        assertEquals(Reason.USER_CODE_FAILED, assertThrows(CodecException.class, () -> broken.encode(new Circle(1))).reason());
        assertEquals(Reason.USER_CODE_FAILED, assertThrows(CodecException.class, () -> broken.decode(bytes(64, 1), null)).reason());
        assertEquals(Reason.USER_CODE_FAILED, assertThrows(CodecException.class, () -> broken.decode(bytes(64, 0, 2), null)).reason());
        assertEquals(Reason.TRUNCATED, assertThrows(CodecException.class, () -> broken.decode(bytes(64, 0), null)).reason());
    }

    @Test
    void refsNeedAResolverThatAccepts() {
        byte[] frame = registry.encode(new FakeRef("weft://sys/a#1"));
        CodecException x = assertThrows(CodecException.class, () -> registry.decode(frame, null));
        assertEquals(Reason.UNRESOLVED_REF, x.reason());
        assertTrue(x.getMessage().contains("no RefResolver"), x.getMessage());
        byte[] foreign = registry.encode(new FakeRef("http://elsewhere"));
        assertEquals(Reason.UNRESOLVED_REF, assertThrows(CodecException.class, () -> registry.decode(foreign, resolver)).reason());
        assertEquals(Reason.UNRESOLVED_REF, assertThrows(CodecException.class, () -> registry.decode(foreign, a -> null)).reason());
    }

    /**
     * Random frames and single-byte mutations of valid frames: each decode either returns a value
     * that encodes again (so it is built from registered and built-in types only) or throws a
     * CodecException; anything else fails with the case's bytes.
     */
    @Test
    void fuzzedFramesOnlyEverFailWithCodecException() {
        Random random = new Random(0x5EEDL);
        List<byte[]> valid = new ArrayList<>();
        for (Object sample : Fixtures.samples()) {
            valid.add(registry.encode(sample));
        }
        valid.add(registry.encode(Map.of("k", new Holder(List.of(new Square(1, "s"))))));
        valid.add(registry.encode(Optional.of(List.of(Color.BLUE, Set.of(1.5f), new EnumMap<>(Map.of(Color.RED, 'c'))))));
        Map<Reason, Integer> reasons = new EnumMap<>(Reason.class);
        int decoded = 0;
        int cases = 0;
        // 1. random bytes, half of them starting with a plausible type id
        for (int i = 0; i < 10_000; i++) {
            byte[] frame = new byte[1 + random.nextInt(48)];
            random.nextBytes(frame);
            if (random.nextBoolean()) {
                frame[0] = (byte) (1 + random.nextInt(16));
            } else if (random.nextInt(4) == 0) {
                frame[0] = (byte) (64 + random.nextInt(12));
            }
            decoded += fuzzOne(frame, reasons);
            cases++;
        }
        // 2. single-byte mutations of valid frames: a random byte, a flipped bit, an inserted or a deleted byte
        for (int i = 0; i < 10_000; i++) {
            byte[] base = valid.get(random.nextInt(valid.size()));
            int at = random.nextInt(base.length);
            byte[] frame;
            switch (random.nextInt(4)) {
                case 0 -> {
                    frame = base.clone();
                    frame[at] = (byte) random.nextInt(256);
                }
                case 1 -> {
                    frame = base.clone();
                    frame[at] ^= (byte) (1 << random.nextInt(8));
                }
                case 2 -> {
                    frame = new byte[base.length + 1];
                    System.arraycopy(base, 0, frame, 0, at);
                    frame[at] = (byte) random.nextInt(256);
                    System.arraycopy(base, at, frame, at + 1, base.length - at);
                }
                default -> {
                    frame = new byte[base.length - 1];
                    System.arraycopy(base, 0, frame, 0, at);
                    System.arraycopy(base, at + 1, frame, at, base.length - at - 1);
                }
            }
            decoded += fuzzOne(frame, reasons);
            cases++;
        }
        assertEquals(20_000, cases);
        System.out.println("fuzz: " + cases + " cases, " + decoded + " decoded, refusals by reason " + reasons);
        // the fuzz reaches past the type id: several kinds of refusal, and some mutations still decode
        assertTrue(reasons.size() >= 6, () -> "reasons seen: " + reasons);
        assertTrue(decoded > 100, "decoded: " + decoded);
    }

    private int fuzzOne(byte[] frame, Map<Reason, Integer> reasons) {
        Object value;
        try {
            value = registry.decode(frame, resolver);
        } catch (CodecException e) {
            reasons.merge(e.reason(), 1, Integer::sum);
            return 0;
        } catch (Throwable t) {
            fail("decoding " + hex(frame) + " threw " + t, t);
            return 0;
        }
        try {
            registry.encode(value);
        } catch (Throwable t) {
            fail("decoding " + hex(frame) + " returned a " + value.getClass().getName()
                    + " that does not encode again: " + t, t);
        }
        return 1;
    }
}
