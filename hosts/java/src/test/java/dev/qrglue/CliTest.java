package dev.qrglue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's commands, flags and exit codes, in process (bin/qrglue runs the same main). */
class CliTest {
    record Run(int code, byte[] out, String err) {}

    private static Run run(byte[] stdin, boolean terminal, String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = new Cli(
                        new ByteArrayInputStream(stdin),
                        new PrintStream(out),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        terminal)
                .run(args);
        return new Run(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private static Run run(String... args) {
        return run(new byte[0], false, args);
    }

    @Test
    void writesWhatTheLibraryReturns(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hi.png");
        Run r = run(
                "png",
                "hello",
                "-o",
                file.toString(),
                "--path",
                "interpreted",
                "--ec-level",
                "quartile",
                "--scale",
                "3");
        assertEquals(0, r.code(), r.err());
        Options options = Options.builder().ecLevel(EcLevel.QUARTILE).scale(3).build();
        assertArrayEquals(Qrglue.png("hello", options), Files.readAllBytes(file));
        Run svg = run("svg", "hello", "--dark", "#123", "--view-box-only", "--title", "a <b>", "--class", "qr big");
        assertEquals(0, svg.code(), svg.err());
        String expected =
                Qrglue.svg("hello", Options.builder().dark("#123").build(), new SvgOptions(true, "a <b>", "qr big"));
        assertEquals(expected, new String(svg.out(), StandardCharsets.UTF_8));
        Run text = run("text", "hello", "--style", "ascii", "--micro", "--mask", "2", "--boost-ec");
        assertEquals(0, text.code(), text.err());
        assertEquals(
                Qrglue.text(
                        "hello",
                        Options.builder().micro(true).mask(2).boostEc(true).build(),
                        TextStyle.ASCII),
                new String(text.out(), StandardCharsets.UTF_8));
    }

    @Test
    void readsAPayloadFromStandardInput() {
        byte[] payload = {0, (byte) 0xff, 0x41, 0x00};
        Run r = run(payload, false, "png", "--data-file", "-", "-o", "-", "--symbol-version", "2", "--eci");
        assertEquals(0, r.code(), r.err());
        assertArrayEquals(
                Qrglue.png(payload, Options.builder().version(2).eci(true).build()), r.out());
    }

    @Test
    void aRefusedInputExitsOneWithKindAndMessage() {
        Run empty = run("png", "", "-o", "-");
        assertEquals(1, empty.code());
        assertEquals("qrglue: empty-text: text is empty\n", empty.err());
        Run bad = run("svg", "hi", "--min-size", "0");
        assertEquals(1, bad.code());
        assertEquals("qrglue: invalid-options: min-size must be within 1..=4096, got 0\n", bad.err());
        Run colour = run("text", "hi", "--light", "white");
        assertEquals(1, colour.code());
        assertTrue(colour.err().startsWith("qrglue: invalid-options: light must be a colour"), colour.err());
        Run surrogate = run("png", "a\ud800", "-o", "-");
        assertEquals(
                "qrglue: invalid-text: text contains a lone surrogate (not encodable as UTF-8)\n", surrogate.err());
        assertEquals(1, surrogate.code());
    }

    @Test
    void aBadCommandLineExitsTwo() {
        String[][] bad = {
            {},
            {"gif", "hi"},
            {"png"},
            {"png", "hi", "--data-file", "x"},
            {"png", "hi", "extra"},
            {"png", "hi", "--min-size", "-1"},
            {"png", "hi", "--min-size", "4294967296"},
            {"png", "hi", "--ec-level", "x"},
            {"png", "hi", "--path", "wasm"},
            {"png", "hi", "--ec-level", "Q"},
            {"png", "hi", "--title", "t"},
            {"svg", "hi", "--style", "ascii"},
            {"png", "hi", "--nope"},
            {"png", "hi", "-o"},
            {"png", "hi", "--scale", "2", "--scale", "3"},
        };
        for (String[] args : bad) {
            Run r = run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains("qrglue: error: "), r.err());
            assertEquals(0, r.out().length);
        }
        // A PNG is never written to a terminal unless asked for.
        Run terminal = run(new byte[0], true, "png", "hi");
        assertEquals(2, terminal.code());
        assertEquals(0, terminal.out().length);
        assertEquals(0, run(new byte[0], true, "png", "hi", "-o", "-").code());
        assertEquals(0, run("--version").code());
    }

    @Test
    void everyPathGivesTheSameBytesAndAutoIsTheDefault() {
        byte[] reference = Qrglue.png("paths", Options.DEFAULTS);
        for (String path : new String[] {"auto", "native", "compiled", "interpreted"}) {
            Run r = run("png", "paths", "--path", path, "-o", "-");
            assertEquals(0, r.code(), path + ": " + r.err());
            assertArrayEquals(reference, r.out(), path);
        }
        // The jar `just build-java` builds holds the native library: auto is the native path there.
        assertEquals(Engine.NATIVE, Engine.auto());
        Run refused = run("png", "", "--path", "native", "-o", "-");
        assertEquals(1, refused.code());
        assertEquals("qrglue: empty-text: text is empty\n", refused.err());
        Run bad = run("png", "hi", "--path", "wasm");
        assertTrue(bad.err().contains("(choose from auto, native, compiled, interpreted)"), bad.err());
    }

    @Test
    void aFailedWriteOrReadExitsThree(@TempDir Path dir) {
        Run write = run("png", "hi", "-o", dir.resolve("no/such/folder/hi.png").toString());
        assertEquals(3, write.code());
        assertTrue(write.err().startsWith("qrglue: cannot write "), write.err());
        Run read = run("png", "--data-file", dir.resolve("missing").toString(), "-o", "-");
        assertEquals(3, read.code());
        assertTrue(read.err().startsWith("qrglue: cannot read the payload from "), read.err());
    }
}
