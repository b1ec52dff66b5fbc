// Command qrglue makes QR codes from the command line: the Go twin of the
// Rust CLI (hosts/rust/cli), the Node one and the Python one, with the same
// commands, flags and exit codes. The option flags every command takes come
// from the contract's table (qrglue.CLIFlags, generated): `qrglue png -h` lists them.
//
//	qrglue png (TEXT | --data-file PATH | --text-stdin) [-o FILE] [--path auto|raw|native] [options]
//	qrglue svg (TEXT | ...) [same options] [--view-box-only] [--title TEXT] [--class NAMES]
//	qrglue text (TEXT | ...) [--style half-blocks|half-blocks-inverted|ascii] [same options]
//
// Output goes to FILE, or to standard output with `-o -` or no -o; a PNG is
// never written to a terminal unless asked for with `-o -`. Exit status: 0
// written, 1 the generator refused the input (`qrglue: <kind>: <message>`),
// 2 bad command line, 3 the input could not be read, the output could not
// be written or the path could not run (a guest trap).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"qrglue.dev/qrglue"
)

const (
	exitQrError = 1
	exitUsage   = 2
	exitFailure = 3
)

// version is this program's version (-V, --version).
const version = "qrglue 0.2.0"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// ecLevels are --ec-level's values: the WIT names, exactly, as every
// library and the other CLIs take them (docs/contract.md).
var ecLevels = map[string]qrglue.ECLevel{
	"low": qrglue.Low, "medium": qrglue.Medium, "quartile": qrglue.Quartile, "high": qrglue.High,
}

var styles = map[string]qrglue.TextStyle{
	"half-blocks": qrglue.HalfBlocks, "half-blocks-inverted": qrglue.HalfBlocksInverted, "ascii": qrglue.ASCII,
}

// u32 is a flag of a u32 option: any u32 is taken (the contract's bounds are
// the generator's to check, exit 1); set records that it was given.
type u32 struct {
	value uint32
	set   bool
}

func (u *u32) String() string { return strconv.FormatUint(uint64(u.value), 10) }
func (u *u32) Set(s string) error {
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 32)
	if err != nil {
		return fmt.Errorf("invalid value '%s': not an integer within 0..=4294967295", s)
	}
	u.value, u.set = uint32(n), true
	return nil
}

// choice is a flag whose value is one of a set of names.
type choice struct {
	value   string
	allowed []string
	fold    bool
}

func (c *choice) String() string { return c.value }
func (c *choice) Set(s string) error {
	if c.fold {
		s = strings.ToLower(s)
	}
	for _, a := range c.allowed {
		if s == a {
			c.value = s
			return nil
		}
	}
	return fmt.Errorf("invalid value '%s' [possible values: %s]", s, strings.Join(c.allowed, ", "))
}

type request struct {
	command                             string
	text                                *string
	dataFile, output                    string
	textStdin                           bool
	viewBoxOnly                         bool
	title, class                        string
	path, style                         choice
	common                              []optionFlag
	flags                               *flag.FlagSet
	titleGiven, classGiven, outputGiven bool
}

// optionFlag is a flag of an option every command takes (qrglue.CLIFlags), parsed by its
// kind; value is what qrglue.NamedOption takes, given whether the command line has it.
type optionFlag struct {
	name  string // the WIT name
	flag  string
	value func() any
	given bool
}

// addOptionFlag defines the flag f on fs, typed by its kind.
func addOptionFlag(fs *flag.FlagSet, f qrglue.CLIFlag) optionFlag {
	switch f.Kind {
	case "bool":
		on := new(bool)
		fs.BoolVar(on, f.Flag, false, f.Help)
		return optionFlag{name: f.Name, flag: f.Flag, value: func() any { return *on }}
	case "u32", "option-u32":
		n := new(u32)
		fs.Var(n, f.Flag, f.Help)
		return optionFlag{name: f.Name, flag: f.Flag, value: func() any { return n.value }}
	case "ec-level":
		names := make([]string, 0, len(ecLevels))
		for level := qrglue.Low; level <= qrglue.High; level++ {
			names = append(names, level.String())
		}
		c := &choice{allowed: names}
		fs.Var(c, f.Flag, f.Help)
		return optionFlag{name: f.Name, flag: f.Flag, value: func() any { return ecLevels[c.value] }}
	default:
		text := new(string)
		fs.StringVar(text, f.Flag, "", f.Help)
		return optionFlag{name: f.Name, flag: f.Flag, value: func() any { return *text }}
	}
}

func parse(args []string, stderr io.Writer) (*request, int) {
	usage := func() {
		fmt.Fprintln(stderr, "usage: qrglue png|svg|text (TEXT | --data-file PATH | --text-stdin) [-o FILE] [options]\n"+
			"       qrglue COMMAND -h lists the options")
	}
	if len(args) == 0 {
		usage()
		return nil, exitUsage
	}
	switch args[0] {
	case "-V", "--version":
		return &request{command: "version"}, 0
	case "-h", "--help", "help":
		usage()
		return &request{command: "help"}, 0
	case "png", "svg", "text":
	default:
		fmt.Fprintf(stderr, "qrglue: unknown command %q\n", args[0])
		usage()
		return nil, exitUsage
	}
	r := &request{command: args[0],
		path:  choice{value: "auto", allowed: []string{"auto", "raw", "native"}},
		style: choice{value: "half-blocks", allowed: []string{"half-blocks", "half-blocks-inverted", "ascii"}}}
	fs := flag.NewFlagSet("qrglue "+r.command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	r.flags = fs
	fs.StringVar(&r.dataFile, "data-file", "", "Read the payload's bytes from `PATH` (- for standard input) instead of TEXT")
	fs.BoolVar(&r.textStdin, "text-stdin", false, "Read the text from standard input (any text, NUL included)")
	fs.StringVar(&r.output, "o", "", "Where to write (`FILE`); - is standard output")
	fs.StringVar(&r.output, "output", "", "Same as -o")
	fs.Var(&r.path, "path", "Which implementation runs the generator: raw (wazero), native (cgo), "+
		"or auto: the fastest this build has, native if built with it, else raw [default: auto]")
	// The options every command takes, from the contract's table (qrglue.CLIFlags).
	for _, f := range qrglue.CLIFlags {
		if f.Command == "" {
			r.common = append(r.common, addOptionFlag(fs, f))
		}
	}
	if r.command == "svg" {
		fs.BoolVar(&r.viewBoxOnly, "view-box-only", false, "Leave out width and height: the document scales to its box")
		fs.StringVar(&r.title, "title", "", "A <title>: the code's accessible name (at most 1024 UTF-8 bytes), escaped")
		fs.StringVar(&r.class, "class", "", "The <svg> element's class: CSS class names separated by single spaces")
	}
	if r.command == "text" {
		fs.Var(&r.style, "style", "How to draw the modules: half-blocks, half-blocks-inverted or ascii [default: half-blocks]")
	}
	// Flags and the one TEXT in any order, as clap and argparse take them
	// (the flag package alone stops at the first argument that is no flag).
	var positional []string
	rest := args[1:]
	for {
		given := rest
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return &request{command: "help"}, 0
			}
			return nil, exitUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		if stoppedAtTerminator(fs, given, rest) {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "title":
			r.titleGiven = true
		case "class":
			r.classGiven = true
		case "o", "output":
			r.outputGiven = true
		}
		for i := range r.common {
			if r.common[i].flag == f.Name {
				r.common[i].given = true
			}
		}
	})
	inputs := len(positional)
	if r.dataFile != "" {
		inputs++
	}
	if r.textStdin {
		inputs++
	}
	if inputs != 1 || len(positional) > 1 {
		fmt.Fprintln(stderr, "qrglue: give exactly one of TEXT, --data-file PATH and --text-stdin")
		return nil, exitUsage
	}
	if len(positional) == 1 {
		r.text = &positional[0]
	}
	return r, 0
}

// stoppedAtTerminator says whether fs.Parse(given) stopped at "--", after
// which everything is positional, even what looks like a flag: the token
// before rest is "--", and not the value of a flag that takes one.
func stoppedAtTerminator(fs *flag.FlagSet, given, rest []string) bool {
	i := len(given) - len(rest) - 1
	if i < 0 || given[i] != "--" {
		return false
	}
	if i == 0 {
		return true
	}
	previous := given[i-1]
	name := strings.TrimLeft(previous, "-")
	if !strings.HasPrefix(previous, "-") || strings.Contains(name, "=") {
		return true
	}
	f := fs.Lookup(name)
	if f == nil {
		return true
	}
	boolFlag, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && boolFlag.IsBoolFlag()
}

func (r *request) options() []qrglue.Option {
	var opts []qrglue.Option
	for _, o := range r.common {
		if o.given {
			opts = append(opts, qrglue.NamedOption(o.name, o.value()))
		}
	}
	return opts
}

// readBounded reads at most one byte more than any input may have: enough
// for the generator to refuse a longer one without holding it all.
func readBounded(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, qrglue.MaxTextBytes+1))
}

func run(args []string, stdin io.Reader, stdout io.Writer, stderr io.Writer) int {
	r, code := parse(args, stderr)
	if r == nil || code != 0 {
		return code
	}
	switch r.command {
	case "version":
		fmt.Fprintln(stdout, version)
		return 0
	case "help":
		return 0
	}
	toStdout := !r.outputGiven || r.output == "-"
	if r.command == "png" && !r.outputGiven && isTerminal(stdout) {
		// Binary on a terminal garbles it; `-o -` says the caller means it.
		fmt.Fprintln(stderr, "qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it")
		return exitUsage
	}

	var text string
	var data []byte
	payload := false
	switch {
	case r.text != nil:
		text = *r.text // the argument's bytes: not UTF-8 is the generator's invalid-text
	case r.textStdin:
		read, err := readBounded(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "qrglue: cannot read the text from standard input: %v\n", err)
			return exitFailure
		}
		text = string(read)
	default:
		var err error
		source := r.dataFile
		if r.dataFile == "-" {
			source = "standard input"
			data, err = readBounded(stdin)
		} else {
			var f *os.File
			if f, err = os.Open(r.dataFile); err == nil {
				data, err = readBounded(f)
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "qrglue: cannot read the payload from %s: %v\n", source, unwrapPath(err))
			return exitFailure
		}
		if data == nil {
			data = []byte{}
		}
		payload = true
	}

	out, err := render(r, text, data, payload)
	if err != nil {
		var qrErr *qrglue.QrError
		if errors.As(err, &qrErr) {
			fmt.Fprintf(stderr, "qrglue: %s: %s\n", qrErr.Kind, qrErr.Message)
			return exitQrError
		}
		// The library's own errors already begin with "qrglue: ".
		fmt.Fprintf(stderr, "qrglue: %s\n", strings.TrimPrefix(err.Error(), "qrglue: "))
		return exitFailure
	}
	if toStdout {
		_, err = stdout.Write(out)
	} else {
		err = os.WriteFile(r.output, out, 0o644)
	}
	if err != nil {
		target := r.output
		if toStdout {
			target = "standard output"
		}
		fmt.Fprintf(stderr, "qrglue: cannot write %s: %v\n", target, unwrapPath(err))
		return exitFailure
	}
	return 0
}

// generator: the path's generator and the path it is. auto is the fastest
// path this build has, as in the Rust, Node and Python CLIs: native (the core
// through cgo, no wasm, no compile at start) in a build with -tags
// qrglue_native, else raw; --path native in a build without it is
// ErrNativeUnavailable (exit 3).
func generator(path string) (*qrglue.Generator, string, error) {
	if path == "native" || path == "auto" {
		g, err := qrglue.NewNativeGenerator()
		if path == "native" || !errors.Is(err, qrglue.ErrNativeUnavailable) {
			return g, "native", err
		}
	}
	g, err := qrglue.Default()
	return g, "raw", err
}

func render(r *request, text string, data []byte, payload bool) ([]byte, error) {
	g, _, err := generator(r.path.value)
	if err != nil {
		return nil, err
	}
	opts := r.options()
	switch r.command {
	case "png":
		if payload {
			return g.PNGBytes(data, opts...)
		}
		return g.PNG(text, opts...)
	case "svg":
		svgOpts := make([]qrglue.SVGOption, 0, len(opts)+3)
		for _, o := range opts {
			svgOpts = append(svgOpts, o)
		}
		svgOpts = append(svgOpts, qrglue.WithViewBoxOnly(r.viewBoxOnly))
		if r.titleGiven {
			svgOpts = append(svgOpts, qrglue.WithTitle(r.title))
		}
		if r.classGiven {
			svgOpts = append(svgOpts, qrglue.WithClass(r.class))
		}
		var svg string
		if payload {
			svg, err = g.SVGBytes(data, svgOpts...)
		} else {
			svg, err = g.SVG(text, svgOpts...)
		}
		return []byte(svg), err
	default:
		textOpts := make([]qrglue.TextOption, 0, len(opts)+1)
		for _, o := range opts {
			textOpts = append(textOpts, o)
		}
		textOpts = append(textOpts, qrglue.WithStyle(styles[r.style.value]))
		var drawn string
		if payload {
			drawn, err = g.TextBytes(data, textOpts...)
		} else {
			drawn, err = g.Text(text, textOpts...)
		}
		return []byte(drawn), err
	}
}

// unwrapPath drops the *PathError's "open FILE:" prefix: the message names the file already.
func unwrapPath(err error) error {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
