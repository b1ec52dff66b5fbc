package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/internal/corpus"
)

// The test binary is the CLI too, when asked: the subprocess tests run the
// real main (os.Args, exit status, standard streams).
func TestMain(m *testing.M) {
	if os.Getenv("QRGLUE_TEST_RUN_CLI") == "1" {
		main()
	}
	os.Exit(m.Run())
}

func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func goldenPNG(t *testing.T, id string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	return want[id]["png_sha256"].(string)
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestWritesTheGoldenPNG(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ref.png")
	code, _, stderr := cli(t, "", "png", "https://github.com/pretzelhammer/rust-blog", "-o", file, "--path", "raw")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	written, err := os.ReadFile(file)
	if err != nil || digest(written) != goldenPNG(t, "ref-01") {
		t.Fatalf("the file is not the golden PNG: %v", err)
	}
	// -o - and no -o both write to standard output; flags before or after TEXT.
	for _, args := range [][]string{
		{"png", "--ec-level", "medium", "https://www.reddit.com/r/rustjerk/top/?t=all", "-o", "-"},
		{"png", "https://www.reddit.com/r/rustjerk/top/?t=all", "--ec-level=medium"},
	} {
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 || digest([]byte(stdout)) != goldenPNG(t, "ref-02-ec-medium") {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// Every option flag reaches the generator: the CLI's output equals the
// library's for the same options.
func TestEveryOptionFlag(t *testing.T) {
	g, err := qrglue.Default()
	if err != nil {
		t.Fatal(err)
	}
	common := []qrglue.Option{qrglue.WithECLevel(qrglue.Quartile), qrglue.WithMinSize(300), qrglue.WithQuietZone(2),
		qrglue.WithScale(5), qrglue.WithDark("#0b3d91"), qrglue.WithLight("#ffff0040"), qrglue.WithMinVersion(3),
		qrglue.WithMask(5), qrglue.WithBoostEC(false), qrglue.WithECI(true)}
	flags := []string{"--ec-level", "quartile", "--min-size", "300", "--quiet-zone", "2", "--scale", "5", "--dark", "#0b3d91",
		"--light", "#ffff0040", "--min-version", "3", "--mask", "5", "--eci"}
	png, _ := g.PNG("flags", common...)
	if code, out, stderr := cli(t, "", append([]string{"png", "flags"}, flags...)...); code != 0 || out != string(png) {
		t.Fatalf("png: exit %d %s", code, stderr)
	}
	svgOpts := []qrglue.SVGOption{qrglue.WithViewBoxOnly(true), qrglue.WithTitle("T & t"), qrglue.WithClass("a b")}
	for _, o := range common {
		svgOpts = append(svgOpts, o)
	}
	svg, _ := g.SVG("flags", svgOpts...)
	svgFlags := append([]string{"svg", "flags", "--view-box-only", "--title", "T & t", "--class", "a b"}, flags...)
	if code, out, stderr := cli(t, "", svgFlags...); code != 0 || out != svg {
		t.Fatalf("svg: exit %d %s", code, stderr)
	}
	text, _ := g.Text("12345", qrglue.WithMicro(true), qrglue.WithVersion(2), qrglue.WithBoostEC(true), qrglue.WithStyle(qrglue.HalfBlocksInverted))
	code, out, stderr := cli(t, "", "text", "12345", "--micro", "--symbol-version", "2", "--boost-ec", "--style", "half-blocks-inverted")
	if code != 0 || out != text {
		t.Fatalf("text: exit %d %s", code, stderr)
	}
	// After "--" a text may look like a flag; "--" as a flag's value is that value.
	dashed, _ := g.PNG("-x")
	if code, out, stderr := cli(t, "", "png", "-o", "-", "--", "-x"); code != 0 || out != string(dashed) {
		t.Fatalf("png -- -x: exit %d %s", code, stderr)
	}
	titled, _ := g.SVG("hi", qrglue.WithTitle("--"))
	if code, out, stderr := cli(t, "", "svg", "--title", "--", "hi", "-o", "-"); code != 0 || out != titled {
		t.Fatalf("svg --title -- hi: exit %d %s", code, stderr)
	}
	// A payload from a file or standard input is bytes as they are.
	payload := []byte{0xff, 0, 'a', 0xed, 0xa0, 0x80}
	file := filepath.Join(t.TempDir(), "payload.bin")
	if err := os.WriteFile(file, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := g.PNGBytes(payload)
	for _, args := range [][]string{{"png", "--data-file", file}, {"png", "--data-file", "-"}} {
		if code, out, stderr := cli(t, string(payload), args...); code != 0 || out != string(want) {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
	}
	// --text-stdin reads a text (NUL included), checked as one.
	withNUL, _ := g.PNG("a\x00b")
	if code, out, _ := cli(t, "a\x00b", "png", "--text-stdin"); code != 0 || out != string(withNUL) {
		t.Fatalf("--text-stdin: exit %d", code)
	}
}

// Refused input: `qrglue: <kind>: <message>` and exit 1, the contract's
// kind and message, in the contract's order.
func TestRefusedInputExits1(t *testing.T) {
	for _, tc := range []struct {
		args []string
		line string
	}{
		{[]string{"png", ""}, "qrglue: empty-text: text is empty"},
		{[]string{"svg", "hi", "--min-size", "0", "--quiet-zone", "17"}, "qrglue: invalid-options: min-size must be within 1..=4096, got 0"},
		{[]string{"png", "hi", "--dark", "red"}, `qrglue: invalid-options: dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"`},
		{[]string{"png", "hi", "--dark", "red", "--scale", "0"}, `qrglue: invalid-options: dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"`},
		{[]string{"png", "hi", "--dark", "#000", "--scale", "0"}, "qrglue: invalid-options: scale must be within 1..=20, got 0"},
		{[]string{"text", "\xed\xa0\x80", "--mask", "9"}, "qrglue: invalid-text: text contains a lone surrogate (not encodable as UTF-8)"},
		{[]string{"png", "a\xffb"}, "qrglue: invalid-text: text is not valid UTF-8 from byte 1"},
		{[]string{"png", strings.Repeat("9", 7090)}, "qrglue: data-too-long: text does not fit in any QR code: it is over 7089 bytes, the most one holds"},
		{[]string{"svg", "hi", "--class", "a  b"}, `qrglue: invalid-options: class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got "a  b"`},
		{[]string{"png", "1", "--micro", "--ec-level", "high"}, "qrglue: invalid-options: ec-level high is not available in Micro QR (M4 goes up to quartile)"},
		{[]string{"png", "hi", "--symbol-version", "41"}, "qrglue: invalid-options: version must be within 1..=40, got 41"},
	} {
		code, stdout, stderr := cli(t, "", append(tc.args, "-o", "-")...)
		if code != 1 || stderr != tc.line+"\n" || stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, %d bytes out; want exit 1 and %q", tc.args, code, stderr, len(stdout), tc.line)
		}
	}
	// A payload over the bound is refused after reading one byte past it.
	code, _, stderr := cli(t, strings.Repeat("x", 1<<20), "png", "--data-file", "-", "-o", "-")
	if code != 1 || !strings.HasPrefix(stderr, "qrglue: data-too-long:") {
		t.Errorf("a 1 MiB payload: exit %d %s", code, stderr)
	}
}

func TestBadCommandLineExits2(t *testing.T) {
	for _, args := range [][]string{
		{}, {"gif", "hi"}, {"png"}, {"png", "a", "b"}, {"png", "hi", "--min-size", "-1"},
		{"png", "hi", "--min-size", "4294967296"}, {"png", "hi", "--scale", "x"}, {"png", "hi", "--ec-level", "x"}, {"png", "hi", "--ec-level", "M"}, {"png", "hi", "--ec-level", "HIGH"},
		{"png", "hi", "--path", "component"}, {"png", "hi", "--nope"}, {"png", "hi", "--title", "t"},
		{"svg", "hi", "--style", "ascii"}, {"text", "hi", "--style", "blocks"}, {"png", "hi", "--data-file", "f"},
		{"png", "--text-stdin", "--data-file", "-"},
	} {
		if code, _, _ := cli(t, "", append(args, "-o", "-")...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, stdout, _ := cli(t, "", "--version"); code != 0 || !strings.HasPrefix(stdout, "qrglue ") {
		t.Errorf("--version: exit %d %q", code, stdout)
	}
}

func TestFailedWriteOrReadExits3(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := cli(t, "", "svg", "hi", "-o", dir) // a directory
	if code != 3 || !strings.HasPrefix(stderr, "qrglue: cannot write "+dir+": ") {
		t.Errorf("write to a directory: exit %d %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "png", "--data-file", filepath.Join(dir, "missing"), "-o", "-")
	if code != 3 || !strings.Contains(stderr, "cannot read the payload from") {
		t.Errorf("a missing payload file: exit %d %q", code, stderr)
	}
}

// The built program: exit statuses and streams through a real process.
func TestTheProgram(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	runProgram := func(args ...string) (int, []byte, string) {
		cmd := exec.Command(self, args...)
		cmd.Env = append(append(os.Environ(), "QRGLUE_TEST_RUN_CLI=1"), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode(), out, stderr.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out, stderr.String()
	}
	if code, out, stderr := runProgram("png", "https://github.com/pretzelhammer/rust-blog"); code != 0 || digest(out) != goldenPNG(t, "ref-01") {
		t.Errorf("png to a pipe: exit %d %s", code, stderr)
	}
	if code, _, stderr := runProgram("png", ""); code != 1 || stderr != "qrglue: empty-text: text is empty\n" {
		t.Errorf("empty text: exit %d %q", code, stderr)
	}
	if code, _, _ := runProgram("png", "hi", "--quiet-zone", "x"); code != 2 {
		t.Errorf("a bad flag: exit %d", code)
	}
	if code, _, _ := runProgram("png", "hi", "-o", t.TempDir()); code != 3 {
		t.Errorf("a failed write: exit %d", code)
	}
	// wazero's compilation cache on disk: the first process fills it, the
	// second loads the compiled code from it; both give the golden PNG
	// (--path raw: auto is native in a build with it, which compiles nothing).
	cache := t.TempDir()
	env = []string{"QRGLUE_WAZERO_CACHE_DIR=" + cache}
	for run := 0; run < 2; run++ {
		if code, out, stderr := runProgram("png", "https://github.com/pretzelhammer/rust-blog", "--path", "raw"); code != 0 || digest(out) != goldenPNG(t, "ref-01") {
			t.Errorf("png with the disk cache, run %d: exit %d %s", run, code, stderr)
		}
		if entries, _ := os.ReadDir(cache); len(entries) == 0 {
			t.Errorf("run %d left the cache directory empty", run)
		}
	}
}

// --path auto (the default) is native in a build with it, raw in one without;
// both give the same bytes as --path raw.
func TestPathNativeOrRawIsAuto(t *testing.T) {
	_, nativeErr := qrglue.NewNativeGenerator()
	want := map[bool]string{true: "native", false: "raw"}[nativeErr == nil]
	if _, path, err := generator("auto"); err != nil || path != want {
		t.Fatalf("--path auto: %s (%v), expected %s", path, err, want)
	}
	raw, _ := qrglue.PNG("auto?")
	for _, args := range [][]string{{"png", "auto?", "-o", "-"}, {"png", "auto?", "--path", "auto", "-o", "-"}} {
		if code, out, stderr := cli(t, "", args...); code != 0 || out != string(raw) {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
	}
	code, _, stderr := cli(t, "", "png", "x", "--path", "fast", "-o", "-")
	if code != 2 || !strings.Contains(stderr, "[possible values: auto, raw, native]") {
		t.Fatalf("--path fast: exit %d %q", code, stderr)
	}
}

// --path native runs the C library in a build with it; in a build without,
// it is a path that cannot run: exit 3, with the reason.
func TestPathNative(t *testing.T) {
	raw, _ := qrglue.PNG("native?")
	code, out, stderr := cli(t, "", "png", "native?", "--path", "native", "-o", "-")
	if _, err := qrglue.NewNativeGenerator(); err != nil {
		if code != 3 || !strings.HasPrefix(stderr, "qrglue: this build has no native path") {
			t.Fatalf("--path native without it: exit %d %q", code, stderr)
		}
		return
	}
	if code != 0 || out != string(raw) {
		t.Fatalf("--path native: exit %d %s", code, stderr)
	}
	code, _, stderr = cli(t, "", "svg", "hi", "--path", "native", "--title", "\x07", "-o", "-")
	if code != 1 || stderr != "qrglue: invalid-options: title holds U+0007 at byte 0, which XML 1.0 cannot carry\n" {
		t.Fatalf("a refusal on --path native: exit %d %q", code, stderr)
	}
}
