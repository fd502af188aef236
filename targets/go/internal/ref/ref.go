// Package ref holds what the verification suite and the benchmark compare with: libpg_query's
// own entry points through cgo (the routes pg_query_go takes), and the SQL scripts read into
// statements as `pgbind verify` reads them (cli/input.c).
package ref

/*
#cgo LDFLAGS: -lpg_query
#include <stdlib.h>
#include <pg_query.h>
*/
import "C"

import (
	"bytes"
	"fmt"
	"os"
	"unicode/utf8"
	"unsafe"
)

// Error is libpg_query's error, every field.
type Error struct {
	Message, Funcname, Filename, Context string
	Lineno, Cursorpos                    int
}

func (e *Error) Error() string { return fmt.Sprintf("%s (at %d)", e.Message, e.Cursorpos) }

func newError(e *C.PgQueryError) *Error {
	s := func(p *C.char) string {
		if p == nil {
			return ""
		}
		return C.GoString(p)
	}
	return &Error{s(e.message), s(e.funcname), s(e.filename), s(e.context), int(e.lineno), int(e.cursorpos)}
}

func cstr(s string) *C.char { return C.CString(s) }

// ParseProtobuf is pg_query_parse_protobuf's bytes.
func ParseProtobuf(sql string) ([]byte, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	r := C.pg_query_parse_protobuf(c)
	defer C.pg_query_free_protobuf_parse_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	return C.GoBytes(unsafe.Pointer(r.parse_tree.data), C.int(r.parse_tree.len)), nil
}

// ParseJSON is pg_query_parse's JSON.
func ParseJSON(sql string) (string, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	r := C.pg_query_parse(c)
	defer C.pg_query_free_parse_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.parse_tree), nil
}

// DeparseProtobuf is pg_query_deparse_protobuf of protobuf bytes (pg_query_go's Deparse after
// proto.Marshal).
func DeparseProtobuf(b []byte) (string, error) {
	var pb C.PgQueryProtobuf
	pb.len = C.size_t(len(b))
	pb.data = (*C.char)(C.CBytes(b))
	defer C.free(unsafe.Pointer(pb.data))
	r := C.pg_query_deparse_protobuf(pb)
	defer C.pg_query_free_deparse_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.query), nil
}

// Fingerprint is pg_query_fingerprint's fingerprint_str and value.
func Fingerprint(sql string) (string, uint64, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	r := C.pg_query_fingerprint(c)
	defer C.pg_query_free_fingerprint_result(r)
	if r.error != nil {
		return "", 0, newError(r.error)
	}
	return C.GoString(r.fingerprint_str), uint64(r.fingerprint), nil
}

// Normalize is pg_query_normalize's text.
func Normalize(sql string) (string, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	r := C.pg_query_normalize(c)
	defer C.pg_query_free_normalize_result(r)
	if r.error != nil {
		return "", newError(r.error)
	}
	return C.GoString(r.normalized_query), nil
}

// ScanProtobuf is pg_query_scan's bytes (pg_query_go's Scan unmarshals them).
func ScanProtobuf(sql string) ([]byte, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	r := C.pg_query_scan(c)
	defer C.pg_query_free_scan_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	return C.GoBytes(unsafe.Pointer(r.pbuf.data), C.int(r.pbuf.len)), nil
}

// Split is pg_query_split_with_parser's (parser) or _scanner's statement boundaries.
func Split(sql string, parser bool) ([][2]int, error) {
	c := cstr(sql)
	defer C.free(unsafe.Pointer(c))
	var r C.PgQuerySplitResult
	if parser {
		r = C.pg_query_split_with_parser(c)
	} else {
		r = C.pg_query_split_with_scanner(c)
	}
	defer C.pg_query_free_split_result(r)
	if r.error != nil {
		return nil, newError(r.error)
	}
	var out [][2]int
	for _, s := range unsafe.Slice(r.stmts, int(r.n_stmts)) {
		out = append(out, [2]int{int(s.stmt_location), int(s.stmt_len)})
	}
	return out, nil
}

// Statements reads a SQL script as `pgbind verify` does: psql's backslash lines blanked,
// extension scripts' placeholders replaced, split with libpg_query's parser (its scanner where
// the parser fails); statements that are not UTF-8 are left out (Go's protobuf strings must be).
func Statements(path string) ([]string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(text, []byte("\n"))
	for _, l := range lines {
		t := bytes.TrimLeft(l, " \t")
		if len(t) > 0 && t[0] == '\\' {
			for i := range l {
				l[i] = ' '
			}
		}
	}
	text = bytes.Join(lines, []byte("\n"))
	text = bytes.ReplaceAll(text, []byte("@extschema@"), []byte("extschema__"))
	text = bytes.ReplaceAll(text, []byte("@extowner@"), []byte("extowner__"))
	if bytes.IndexByte(text, 0) >= 0 {
		return nil, fmt.Errorf("%s: a SQL script with a NUL byte", path)
	}
	s := string(text)
	bounds, err := Split(s, true)
	if err != nil {
		if bounds, err = Split(s, false); err != nil {
			return nil, nil
		}
	}
	var out []string
	for _, b := range bounds {
		if b[0] <= len(s) && b[1] <= len(s)-b[0] && utf8.ValidString(s[b[0]:b[0]+b[1]]) {
			out = append(out, s[b[0]:b[0]+b[1]])
		}
	}
	return out, nil
}
