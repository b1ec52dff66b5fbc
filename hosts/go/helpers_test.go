package qrglue_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"testing"

	"qrglue.dev/qrglue"
)

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// wantQrError fails unless err is a *QrError of this kind and message.
func wantQrError(t testing.TB, err error, kind qrglue.Kind, message string) {
	t.Helper()
	var qrErr *qrglue.QrError
	if !errors.As(err, &qrErr) {
		t.Fatalf("want a *QrError %s (%q), got %T %v", kind, message, err, err)
	}
	if qrErr.Kind != kind || qrErr.Message != message {
		t.Fatalf("want %s: %q\n got %s: %q", kind, message, qrErr.Kind, qrErr.Message)
	}
}

func newGenerator(t testing.TB, maxIdle int) *qrglue.Generator {
	t.Helper()
	g, err := qrglue.NewGenerator(maxIdle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// A path under test: its name and how a test makes a Generator on it. The
// raw path always; native_test.go adds the native one in a build with it.
type path struct {
	name string
	make func(testing.TB) *qrglue.Generator
}

var paths = []path{{"raw", func(t testing.TB) *qrglue.Generator { return newGenerator(t, 1) }}}

// onEveryPath runs test as a subtest per path.
func onEveryPath(t *testing.T, test func(t *testing.T, g *qrglue.Generator)) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) { test(t, p.make(t)) })
	}
}
