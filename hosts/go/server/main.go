// The endpoint of tests/http/README.md in Go: net/http, one process, one
// goroutine per connection on GOMAXPROCS = --workers threads.
//
//	qrglue-server --tier TIER [--port 8080] [--workers N] [--request-timeout SECS]
//
// Tiers: go-qrcode (skip2/go-qrcode, tier 0), cli (the Rust qrglue CLI
// spawned per request), raw (qrglue.raw.wasm on wazero), native (the Rust
// core through cgo; a build with -tags qrglue_native), static (the reference
// URL's golden PNG from memory). Listens on 127.0.0.1 only. Limits: request
// head 16 KiB (431 above it); the whole head must arrive within the request
// timeout (default 10 s); a write that makes no progress for that long
// closes the connection; keep-alive idle 5 s. SIGINT/SIGTERM: exit 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
)

var tiers = []string{"go-qrcode", "cli", "raw", "native", "static"}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("qrglue-server", flag.ContinueOnError)
	usage := "usage: qrglue-server --tier " + strings.Join(tiers, "|") +
		" [--port N] [--workers N] [--request-timeout SECS]"
	fs.Usage = func() { fmt.Fprintln(os.Stderr, usage) }
	tier := fs.String("tier", "", "the tier: "+strings.Join(tiers, ", "))
	port := fs.Int("port", 8080, "the port on 127.0.0.1")
	workers := fs.Int("workers", runtime.NumCPU(), "OS threads running Go code (GOMAXPROCS)")
	timeoutSecs := fs.Float64("request-timeout", 10, "seconds for a request head, and for a write without progress")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "qrglue-server: "+format+"\n%s\n", append(a, usage)...)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *port < 0 || *port > 65535 {
		return fail("bad --port %d", *port)
	}
	if *workers < 1 {
		return fail("bad --workers %d", *workers)
	}
	if !(*timeoutSecs > 0) {
		return fail("bad --request-timeout %v", *timeoutSecs)
	}
	runtime.GOMAXPROCS(*workers)
	timeout := time.Duration(*timeoutSecs * float64(time.Second))

	generate, err := loadTier(*tier, *workers)
	if err != nil {
		fmt.Fprintf(os.Stderr, "qrglue-server go/%s: %v\n", *tier, err)
		if errors.Is(err, errUnknownTier) {
			return fail("unknown tier %q (go tiers: %s)", *tier, strings.Join(tiers, ", "))
		}
		return 1
	}
	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintf(os.Stderr, "qrglue-server go/%s: %v\n", *tier, err)
		return 1
	}
	server := newServer(*tier, generate, timeout)
	fmt.Printf("qrglue-server go/%s: listening on http://%s (workers: %d; head limit 16 KiB, request timeout %g s)\n",
		*tier, listener.Addr(), *workers, timeout.Seconds())

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	served := make(chan error, 1)
	go func() { served <- server.Serve(contractListener{listener.(*net.TCPListener), timeout}) }()
	select {
	case err := <-served:
		fmt.Fprintf(os.Stderr, "qrglue-server go/%s: %v\n", *tier, err)
		return 1
	case <-stop:
	}
	// Idle connections close at once; one busy with a request gets 2 s to
	// finish, then every connection is closed.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if server.Shutdown(ctx) != nil {
		server.Close()
	}
	return 0
}
