package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
	"qrglue.dev/qrglue"
)

const (
	headLimit  = 16 << 10
	maxHeaders = 100
	// net/http lets a head grow to MaxHeaderBytes + 4096 bytes ("bufio slop",
	// Server.initialReadLimitSize) before its 431: this makes that 16 KiB.
	maxHeaderBytes = headLimit - 4096
	keepAliveIdle  = 5 * time.Second

	// net/http's own refusals, in the contract's words (tests/http/README.md).
	badRequestMessage   = "malformed HTTP request"
	headTooLargeMessage = "request head larger than 16 KiB"
)

// A generator makes the PNG of a checked query (or refuses it).
type generator func(r *request) ([]byte, error)

type handler struct {
	tier     string
	generate generator
	alone    bool
}

func newServer(tier string, generate generator, timeout time.Duration) *http.Server {
	return &http.Server{
		Handler: &handler{tier, generate, alone(tier)},
		// The whole head within the timeout, from connect, or from its first
		// byte after a keep-alive wait (IdleTimeout); a body (never read, but
		// net/http discards up to 256 KiB of one after the handler) too.
		ReadHeaderTimeout: timeout,
		ReadTimeout:       timeout,
		IdleTimeout:       keepAliveIdle,
		MaxHeaderBytes:    maxHeaderBytes,
		// OPTIONS * is this endpoint's 404, not net/http's own 200.
		DisableGeneralOptionsHandler: true,
		// A client that resets its connection mid-answer is no server error.
		ErrorLog: log.New(io.Discard, "", 0),
	}
}

type errorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func errorJSON(kind, message string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(errorBody{kind, message}); err != nil {
		panic(err) // two strings always encode
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func sendError(w http.ResponseWriter, status int, kind, message string, close bool) {
	body := errorJSON(kind, message)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if close {
		h.Set("Connection", "close")
	}
	w.WriteHeader(status)
	w.Write(body)
}

func send(w http.ResponseWriter, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body) // HEAD: net/http drops the body, keeps the length
}

// headerLines: the head's header lines (net/http moved Host out of Header).
func headerLines(r *http.Request) int {
	n := 0
	for _, values := range r.Header {
		n += len(values)
	}
	if r.Host != "" {
		n++
	}
	return n
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	class := methodClass(r.Method)
	if class == "unknown" {
		sendError(w, http.StatusBadRequest, "bad-request", unknownMethodMessage, true)
		return
	}
	if headerLines(r) > maxHeaders {
		sendError(w, http.StatusRequestHeaderFieldsTooLarge, "bad-request", "more than 100 header lines", true)
		return
	}
	// The target as sent (RequestURI, not net/http's parsed URL): matched
	// byte for byte, the query read raw.
	path, query := pathAndQuery(r.RequestURI)
	if path != "/qrcode" && path != "/healthz" {
		sendError(w, http.StatusNotFound, "not-found", "no such path (known: /qrcode, /healthz)", false)
		return
	}
	if class == "not-allowed" {
		w.Header().Set("Allow", "GET, HEAD")
		sendError(w, http.StatusMethodNotAllowed, "method-not-allowed", "only GET and HEAD are allowed", false)
		return
	}
	if path == "/healthz" {
		send(w, "text/plain; charset=utf-8", []byte("ok\n"))
		return
	}
	req, refusal := checkQuery(query, h.alone)
	var png []byte
	var err error
	if refusal != nil {
		err = refusal
	} else {
		png, err = h.generate(req)
	}
	var httpErr *httpError
	var qrErr *qrglue.QrError
	switch {
	case err == nil:
		send(w, "image/png", png)
	case errors.As(err, &httpErr):
		sendError(w, httpErr.status, httpErr.kind, httpErr.message, false)
	case errors.As(err, &qrErr):
		sendError(w, http.StatusBadRequest, string(qrErr.Kind), qrErr.Message, false)
	default:
		fmt.Fprintf(os.Stderr, "qrglue-server go/%s: %v\n", h.tier, err)
		sendError(w, http.StatusInternalServerError, "internal", "the generator failed", false)
	}
}

// contractListener hands net/http connections that keep the contract's
// limits where net/http has no setting for them (see contractConn).
type contractListener struct {
	*net.TCPListener
	timeout time.Duration
}

func (l contractListener) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err != nil {
		return nil, err
	}
	boundUnsent(c)
	return &contractConn{c, l.timeout}, nil
}

// notsentLowat: the most a connection may hold written but unsent in the
// kernel before its writes block (TCP_NOTSENT_LOWAT), about two 4096-pixel
// PNGs (7 KB each). net/http reads a pipelined request only once the answer
// before it is written; without this the kernel's send buffer (autotuned up
// to tcp_wmem's 4 MB) took every answer of a client that pipelines 200
// requests and never reads, so each was rendered (issue 39). With it the
// write of the third or so answer blocks, and the write timeout ends the
// connection: a few renders per such client.
const notsentLowat = 16 * 1024

// boundUnsent sets TCP_NOTSENT_LOWAT on c. Best effort: where it fails the
// kernel keeps its default, and the write timeout still ends the connection, later.
func boundUnsent(c *net.TCPConn) {
	raw, err := c.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Control(func(fd uintptr) {
		_ = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_NOTSENT_LOWAT, notsentLowat)
	})
}

// contractConn is a connection as net/http sees it, with two changes:
//
//   - A write timeout that counts from each write, not from the request:
//     net/http's WriteTimeout is one deadline for a whole answer, which would
//     cut a slow reader of a large PNG that is still reading; here a write
//     that cannot go down for the timeout (a client that never reads) fails,
//     and net/http closes the connection.
//   - net/http answers a request its parser refuses (a head over the limit, a
//     missing Host, a malformed line) itself, in text/plain, straight on the
//     connection: no handler sees it. Those answers are recognised by the
//     headers net/http writes for them and no handler's answer has
//     (Content-Type before Connection: net/http sorts a handler's headers)
//     and rewritten into the contract's JSON, with the status the contract
//     gives (431 for the head, 400 for the rest, 501 and 505 among them: a
//     request the server cannot read is the client's error).
//
// Embedding *net.TCPConn keeps CloseWrite, which net/http uses after a 431.
type contractConn struct {
	*net.TCPConn
	timeout time.Duration
}

// netHTTPErrorHeaders: what follows the status line of net/http's own error answers (server.go, conn.serve).
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *contractConn) Write(p []byte) (int, error) {
	if err := c.SetWriteDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, err
	}
	if answer := contractAnswer(p); answer != nil {
		if _, err := c.TCPConn.Write(answer); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.TCPConn.Write(p)
}

// contractAnswer: the contract's answer for net/http's own error answer p,
// or nil if p is not one.
func contractAnswer(p []byte) []byte {
	rest, ok := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !ok {
		return nil
	}
	at := bytes.Index(rest, []byte(netHTTPErrorHeaders))
	if at < 3 || bytes.Contains(rest[:at], []byte("\r\n")) {
		return nil
	}
	status, message := "400 Bad Request", badRequestMessage
	switch body := rest[at+len(netHTTPErrorHeaders):]; {
	case bytes.HasPrefix(rest, []byte("431 ")):
		status, message = "431 Request Header Fields Too Large", headTooLargeMessage
	case bytes.Contains(body, []byte("missing required Host header")):
		message = noHostMessage
	}
	json := errorJSON("bad-request", message)
	return fmt.Appendf(nil, "HTTP/1.1 %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n"+
		"Connection: close\r\n\r\n%s", status, len(json), json)
}
