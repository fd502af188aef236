// hooks.go -- what the verification suite and the property test reach beside the API: pgbind's
// C encoder, decoder, JSON writer and C-path deparse, each through the generated converters.

package pg_query

// #include "pgbind_go.h"
import "C"

import "unsafe"

// withCTree builds tree in a fresh C arena and calls f with it.
func withCTree(tree *ParseResult, f func(a *arena, c *C.pgbind_ParseResult) error) error {
	a, err := newArena()
	if err != nil {
		return err
	}
	defer a.free()
	c, err := makeParseResult(a, tree, 0)
	if err != nil {
		return err
	}
	return f(a, c)
}

// encode is libpg_query's protobuf bytes of tree by pgbind's C encoder.
func encode(tree *ParseResult) (out []byte, err error) {
	err = withCTree(tree, func(a *arena, c *C.pgbind_ParseResult) error {
		var st C.pgbind_Status
		var data *C.uint8_t
		var n C.size_t
		if !C.pgbind_encode(c, nil, a.p, &data, &n, &st) {
			return statusError(&st)
		}
		out = C.GoBytes(unsafe.Pointer(data), C.int(n))
		return nil
	})
	return out, err
}

// toJSON is libpg_query's JSON of tree, by pgbind's writer.
func toJSON(tree *ParseResult) (out string, err error) {
	err = withCTree(tree, func(a *arena, c *C.pgbind_ParseResult) error {
		var st C.pgbind_Status
		s := C.pgbind_json(c, nil, a.p, &st)
		if s == nil {
			return statusError(&st)
		}
		out = C.GoString(s)
		return nil
	})
	return out, err
}

// decodeTree is protobuf bytes (pg_query.ParseResult) -> pgbind's C decoder, as a Tree.
func decodeTree(b []byte) (*Tree, error) {
	arena := C.pgbind_Arena_New()
	if arena == nil {
		return nil, errNoMemory()
	}
	var st C.pgbind_Status
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&b[0]))
	}
	c := C.pgbind_decode(p, C.size_t(len(b)), nil, arena, &st)
	if c == nil {
		C.pgbind_Arena_Free(arena)
		return nil, statusError(&st)
	}
	return newTree(arena, c), nil
}

// decode is protobuf bytes -> pgbind's C decoder -> the Go tree (own_gen.go).
func decode(b []byte) (*ParseResult, error) {
	t, err := decodeTree(b)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return t.ToOwned()
}

// scanRoundTrip is a ScanResult through both converters (Go -> C -> Go): the one message pgbind
// has no encoder for.
func scanRoundTrip(s *ScanResult) (*ScanResult, error) {
	a, err := newArena()
	if err != nil {
		return nil, err
	}
	defer a.free()
	c, err := makeScanResult(a, s, 0)
	if err != nil {
		return nil, err
	}
	r := &ScanResult{}
	return r, ownScanResult(c, r)
}

// deparseC is the C path's deparse of input (pgbind_parse's tree, which keeps PostgreSQL's ""
// apart from NULL, straight into pgbind_deparse).
// holdsLossyEmpty is whether input's tree (pgbind's C parse) holds a "" that protobuf, and so a
// Go tree, carries as unset: its Go tree's deparse and JSON are those of the unset field.
func holdsLossyEmpty(input string) (held bool, err error) {
	err = callC(input, false, func(sql *C.char, call *C.go_Call) error {
		r := C.go_holds_lossy_empty(sql, call)
		if r < 0 {
			return errFailed
		}
		held = r == 1
		return nil
	})
	return held, err
}

func deparseC(input string) (out string, err error) {
	err = callC(input, false, func(sql *C.char, call *C.go_Call) error {
		return cResult(C.go_deparse_sql(sql, call), &out)
	})
	return out, err
}
