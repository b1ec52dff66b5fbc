package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// net/http's own error answers (server.go, conn.serve) become the contract's
// JSON; nothing else is touched.
func TestContractAnswer(t *testing.T) {
	for _, c := range []struct {
		netHTTP, status, message string
	}{
		{"HTTP/1.1 431 Request Header Fields Too Large" + netHTTPErrorHeaders + "431 Request Header Fields Too Large",
			"431 Request Header Fields Too Large", headTooLargeMessage},
		{"HTTP/1.1 400 Bad Request: missing required Host header" + netHTTPErrorHeaders + "400 Bad Request: missing required Host header",
			"400 Bad Request", noHostMessage},
		{"HTTP/1.1 400 Bad Request" + netHTTPErrorHeaders + "400 Bad Request", "400 Bad Request", badRequestMessage},
		{"HTTP/1.1 501 Not Implemented" + netHTTPErrorHeaders + "Unsupported transfer encoding", "400 Bad Request", badRequestMessage},
		{"HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version" + netHTTPErrorHeaders + "505 ...",
			"400 Bad Request", badRequestMessage},
	} {
		got := string(contractAnswer([]byte(c.netHTTP)))
		head, body, ok := strings.Cut(got, "\r\n\r\n")
		if !ok || !strings.HasPrefix(head, "HTTP/1.1 "+c.status+"\r\n") || !strings.Contains(head, "\r\nConnection: close") ||
			!strings.Contains(head, "\r\nContent-Type: application/json; charset=utf-8") {
			t.Errorf("%q -> %q", c.netHTTP, got)
			continue
		}
		var answer errorBody
		if err := json.Unmarshal([]byte(body), &answer); err != nil || answer != (errorBody{"bad-request", c.message}) {
			t.Errorf("%q -> body %q (%v)", c.netHTTP, body, err)
		}
	}
	for _, ours := range []string{
		"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 2\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nok\n",
		"\x89PNG" + netHTTPErrorHeaders,
		"HTTP/1.1 200 OK\r\nX: y" + netHTTPErrorHeaders,
	} {
		if got := contractAnswer([]byte(ours)); got != nil {
			t.Errorf("%q rewritten to %q", ours, got)
		}
	}
}

// A write that cannot go down (a client that never reads) fails after the
// timeout, not after net/http's whole-answer deadline.
func TestWriteTimeoutPerWrite(t *testing.T) {
	listener, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	client, err := net.Dial("tcp", listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	accepted, err := contractListener{listener, 300 * time.Millisecond}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer accepted.Close()
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	failed := make(chan error, 1)
	go func() {
		for {
			if _, err := accepted.Write(chunk); err != nil {
				failed <- err
				return
			}
		}
	}()
	select {
	case err := <-failed:
		if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
			t.Fatalf("the blocked write failed with %v, not a timeout", err)
		}
	case <-time.After(10 * time.Second):
		accepted.Close() // ends the writer
		t.Fatal("writes to a client that never reads did not time out within 10 s")
	}
}

var _ http.Handler = (*handler)(nil)
