package dev.qrglue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the Java host refuses itself, before the guest: values Java has and the ABI's u32 cannot carry,
 * strings UTF-8 cannot encode, inputs past the bounds, nulls; each in the contract's order and with
 * the contract's words (the corpus covers what the guest answers). Messages are built from Contract's
 * templates only where the test's point is the order; the rest are written out.
 */
class ErrorsTest {
    private static final QrGenerator GEN = new QrGenerator(Engine.COMPILED, 1);

    private static QrException refused(Executable call) {
        return assertThrows(QrException.class, call);
    }

    private static void assertRefusal(String kind, String message, Executable call) {
        QrException e = refused(call);
        assertEquals(kind, e.kind(), e.getMessage());
        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void loneSurrogatesAreInvalidTextNeverReplaced(Engine engine) {
        QrGenerator gen = new QrGenerator(engine, 1);
        for (String text : new String[] {"\ud800", "a\udc00b", "\udbff", "x\ud83d", "\ude00\ud83d"}) {
            assertRefusal(
                    "invalid-text", "text contains a lone surrogate (not encodable as UTF-8)", () -> gen.png(text));
            assertRefusal(
                    "invalid-text", "text contains a lone surrogate (not encodable as UTF-8)", () -> gen.svg(text));
        }
        assertEquals(0, gen.callsEntered());
        // A pair is one character, not an error: the emoji's four UTF-8 bytes.
        assertArrayEquals(
                gen.png("\ud83d\ude00".getBytes(StandardCharsets.UTF_8), Options.DEFAULTS), gen.png("\ud83d\ude00"));
    }

    @Test
    void invalidTextComesBeforeEverythingElse() {
        String huge = "x".repeat(1_000_000) + "\ud800";
        Options bad = Options.builder().minSize(0).build();
        assertRefusal("invalid-text", Contract.LONE_SURROGATE_MESSAGE, () -> GEN.png(huge, bad));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void dataTooLongFromTheGuestNamesTheLimitHit(Engine engine) {
        QrGenerator gen = new QrGenerator(engine, 1);
        assertRefusal(
                "data-too-long",
                "text does not fit in a QR code at level low: it needs 24020 data bits, version 40 holds 23648",
                () -> gen.png("a".repeat(3000)));
        assertRefusal(
                "data-too-long",
                "text does not fit in version 1 at level low: it needs 812 data bits, version 1 holds 152",
                () -> gen.png("a".repeat(100), Options.builder().version(1L).build()));
        assertRefusal(
                "data-too-long",
                "text does not fit in Micro QR version M1: M1 holds digits only",
                () -> gen.svg("abc", Options.builder().micro(true).version(1L).build()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void hugeInputsAreRefusedBeforeEnteringTheGuest(Engine engine) {
        QrGenerator fresh = new QrGenerator(engine, 1);
        String text = "é".repeat(25_000_000); // 50 MB of UTF-8
        assertRefusal("data-too-long", Contract.DATA_TOO_LONG_MESSAGE, () -> fresh.png(text));
        assertRefusal(
                "data-too-long", Contract.DATA_TOO_LONG_MESSAGE, () -> fresh.png(new byte[7090], Options.DEFAULTS));
        assertRefusal("data-too-long", Contract.DATA_TOO_LONG_MESSAGE, () -> fresh.png("9".repeat(7090)));
        // Not one call reached a core: no byte of them entered a guest or the native library.
        assertEquals(0, fresh.callsEntered());
        // 7089 digits is the longest text there is: it goes in (and fits, at level low).
        assertEquals(
                0x89,
                Byte.toUnsignedInt(
                        fresh.png("9".repeat(7089), Options.builder().minSize(1).build())[0]));
        assertEquals(1, fresh.callsEntered());
    }

    @Test
    void valuesTheAbiCannotCarryAreNamedAsGiven() {
        assertRefusal(
                "invalid-options",
                "min-size must be within 1..=4096, got -1",
                () -> GEN.png("hi", Options.builder().minSize(-1).build()));
        assertRefusal(
                "invalid-options",
                "quiet-zone must be within 0..=16, got 4294967296",
                () -> GEN.png("hi", Options.builder().quietZone(1L << 32).build()));
        assertRefusal(
                "invalid-options",
                "scale must be within 1..=20, got -5",
                () -> GEN.png("hi", Options.builder().scale(-5).build()));
        assertRefusal(
                "invalid-options",
                "mask must be within 0..=7, got -1",
                () -> GEN.png("hi", Options.builder().mask(-1).build()));
        assertRefusal(
                "invalid-options",
                "version must be within 1..=4, got 5",
                () -> GEN.png("hi", Options.builder().micro(true).version(5).build()));
    }

    @Test
    void coloursAreReadAsTheCoreReadsThem() {
        assertRefusal(
                "invalid-options",
                "dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got \"red\"",
                () -> GEN.png("hi", Options.builder().dark("red").build()));
        assertRefusal(
                "invalid-options",
                "light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got \"#12345\"",
                () -> GEN.png("hi", Options.builder().light("#12345").build()));
        // #abc is #aabbccff: the same colour, however written.
        assertRefusal(
                "invalid-options",
                "dark and light must be different colours, both are #aabbccff",
                () -> GEN.png(
                        "hi", Options.builder().dark("#abc").light("#AABBCC").build()));
    }

    @Test
    void optionsAreCheckedInWitOrder() {
        // What the host refuses (a colour that is none) comes before every bound the guest checks.
        assertRefusal(
                "invalid-options",
                "dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got \"bad\"",
                () -> GEN.png(
                        "hi",
                        Options.builder()
                                .minSize(0)
                                .scale(0)
                                .dark("bad")
                                .mask(99)
                                .build()));
        // Within what the ABI carries, the guest's order: min-size before scale.
        assertRefusal(
                "invalid-options",
                "min-size must be within 1..=4096, got 0",
                () -> GEN.png("hi", Options.builder().minSize(0).scale(0).build()));
        // A mask outside u32 is the host's, before the guest sees the equal colours.
        assertRefusal(
                "invalid-options",
                "mask must be within 0..=7, got -3",
                () -> GEN.png("hi", Options.builder().light("#000").mask(-3).build()));
        // Equal colours come before a bad symbol option (the guest's order).
        assertRefusal(
                "invalid-options",
                "dark and light must be different colours, both are #000000ff",
                () -> GEN.png("hi", Options.builder().light("#000").mask(30).build()));
        assertRefusal(
                "invalid-options",
                Contract.VERSION_CONFLICT_MESSAGE,
                () -> GEN.png("hi", Options.builder().version(2).minVersion(3).build()));
        assertRefusal(
                "invalid-options",
                Contract.MICRO_EC_LEVEL_MESSAGE,
                () -> GEN.png(
                        "hi",
                        Options.builder()
                                .micro(true)
                                .ecLevel(EcLevel.HIGH)
                                .eci(true)
                                .build()));
        assertRefusal(
                "invalid-options",
                Contract.MICRO_ECI_MESSAGE,
                () -> GEN.png("hi", Options.builder().micro(true).eci(true).build()));
    }

    @Test
    void anEmptyTextWinsOverTheGuestsChecksNotOverTheHosts() {
        // The host's refusals run before the guest is called (docs/contract.md).
        Options unCarriable =
                Options.builder().minSize(-1).dark("nope").mask(-1).build();
        String minSize = "min-size must be within 1..=4096, got -1";
        assertRefusal("invalid-options", minSize, () -> GEN.png("", unCarriable));
        assertRefusal("invalid-options", minSize, () -> GEN.png(new byte[0], unCarriable));
        assertRefusal(
                "invalid-options",
                "title contains a lone surrogate (not encodable as UTF-8)",
                () -> GEN.svg("", Options.DEFAULTS, new SvgOptions(false, "\ud800", null)));
        // Every bound and combination is the guest's, checked after an empty text.
        Options bad = Options.builder()
                .minSize(0)
                .light("#000")
                .version(2)
                .minVersion(3)
                .build();
        assertRefusal("empty-text", "text is empty", () -> GEN.png("", bad));
        assertRefusal("empty-text", "text is empty", () -> GEN.png(new byte[0], bad));
        assertRefusal("empty-text", "text is empty", () -> GEN.svg("", bad, SvgOptions.NONE.withTitle("\u0001")));
        assertRefusal("empty-text", "text is empty", () -> GEN.png(""));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void svgOptionsPastTheirBoundsNeverEnterTheGuest(Engine engine) {
        QrGenerator gen = new QrGenerator(engine, 1);
        assertRefusal(
                "invalid-options",
                "title must be at most 1024 UTF-8 bytes, got 1026",
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withTitle("é".repeat(513))));
        assertRefusal(
                "invalid-options",
                "title contains a lone surrogate (not encodable as UTF-8)",
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withTitle("a\udfff")));
        assertRefusal(
                "invalid-options",
                "class contains a lone surrogate (not encodable as UTF-8)",
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withSvgClass("\ud800")));
        String longClass = "a".repeat(257);
        assertRefusal(
                "invalid-options",
                "class must be at most 256 UTF-8 bytes, got 257",
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withSvgClass(longClass)));
        // An oversized class is the host's: before the title's bad character, which is the guest's.
        assertRefusal(
                "invalid-options",
                "class must be at most 256 UTF-8 bytes, got 257",
                () -> gen.svg("hi", Options.DEFAULTS, new SvgOptions(false, "é\u0001", longClass)));
        // And before equal colours, which are the guest's.
        assertRefusal(
                "invalid-options",
                "class must be at most 256 UTF-8 bytes, got 257",
                () -> gen.svg("hi", Options.builder().dark("#fff").build(), SvgOptions.NONE.withSvgClass(longClass)));
        assertEquals(0, gen.callsEntered());
        // Within bounds, the guest checks the strings itself: the same words.
        assertRefusal(
                "invalid-options",
                "title holds U+0001 at byte 0, which XML 1.0 cannot carry",
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withTitle("\u0001")));
        assertRefusal(
                "invalid-options",
                Contract.fill(Contract.CLASS_TEMPLATE, "value", "\"a  b\""),
                () -> gen.svg("hi", Options.DEFAULTS, SvgOptions.NONE.withSvgClass("a  b")));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void nullsAreNullPointerExceptionsNamingTheArgument(Engine engine) {
        QrGenerator gen = new QrGenerator(engine, 1);
        assertEquals(
                "text",
                assertThrows(NullPointerException.class, () -> gen.png((String) null))
                        .getMessage());
        assertEquals(
                "data",
                assertThrows(NullPointerException.class, () -> gen.png((byte[]) null))
                        .getMessage());
        assertEquals(
                "options",
                assertThrows(NullPointerException.class, () -> gen.png("hi", null))
                        .getMessage());
        assertEquals(
                "svg",
                assertThrows(NullPointerException.class, () -> gen.svg("hi", Options.DEFAULTS, null))
                        .getMessage());
        assertEquals(
                "style",
                assertThrows(NullPointerException.class, () -> gen.text("hi", Options.DEFAULTS, null))
                        .getMessage());
        assertEquals(
                "dark",
                assertThrows(NullPointerException.class, () -> Options.builder().dark(null))
                        .getMessage());
        assertEquals(
                "ecLevel",
                assertThrows(NullPointerException.class, () -> Options.builder().ecLevel(null))
                        .getMessage());
        assertEquals(0, gen.callsEntered());
    }

    @Test
    void aPayloadIsCopiedBeforeTheCall() {
        byte[] data = "hello".getBytes(StandardCharsets.UTF_8);
        byte[] first = GEN.png(data, Options.DEFAULTS);
        assertArrayEquals(GEN.png("hello"), first);
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), data); // untouched
    }
}
