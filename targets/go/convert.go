// convert.go -- what each kind of line of the generated converters (own_gen.go: C -> Go,
// make_gen.go: Go -> C) means, written once: reading C strings and node arrays of pgbind's arena,
// and filling a C arena from Go with the arena's own bump pointer (a C call only when a block is
// full), so that neither direction makes a C call per node.

package pg_query

/*
#include "pgbind.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// The nesting limit of the Go -> C direction, in message levels: the C side's (a tree from the
// parser is within it already).
const maxDepth = C.PGBIND_DEFAULT_MAX_DEPTH

// ErrDepth: a tree nests deeper than pgbind's limit (PGBIND_DEFAULT_MAX_DEPTH, 10,000 message
// levels, the C side's, the same for every function, Deparse included), or deeper than the
// calling thread's stack holds (libpg_query's deparser needs about 2.5 KiB a level).
var ErrDepth = errors.New("pg_query: the tree nests deeper than the limit (PGBIND_DEFAULT_MAX_DEPTH, 10000 levels) or than the thread's stack holds")

func errDepth() error    { return ErrDepth }
func errNoMemory() error { return errors.New("pg_query: out of memory (pgbind's arena)") }

func errNullElement(field string) error {
	return fmt.Errorf("pg_query: %s holds a nil element", field)
}

func errTag(where string, tag int) error {
	return fmt.Errorf("pg_query: %s holds a node of tag %d, which is no member of it", where, tag)
}

func errWrapper(where string, v interface{}) error {
	return fmt.Errorf("pg_query: %s holds a %T, which pgbind does not know", where, v)
}

// copyString copies a C string of the tree: NULL is "" (protobuf cannot tell them apart).
func copyString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// copyNodes copies a repeated node field; a NULL cell (SELECT DISTINCT's) is a Node with nothing
// set, as protobuf carries it.
func copyNodes(p **C.pgbind_Node, n C.size_t) ([]*Node, error) {
	cells := unsafe.Slice(p, int(n))
	s := make([]*Node, len(cells))
	for i, cell := range cells {
		if cell == nil {
			s[i] = &Node{}
			continue
		}
		node, err := ownNode(cell)
		if err != nil {
			return nil, err
		}
		s[i] = node
	}
	return s, nil
}

// arena is a pgbind_Arena filled from Go: allocations move the arena's cursor (pgbind.h's
// inline fast path, done here), a full block costs one C call.
type arena struct {
	p   *C.pgbind_Arena
	cur *C.pgbind_ArenaCursor
}

func newArena() (*arena, error) {
	p := C.pgbind_Arena_New()
	if p == nil {
		return nil, errNoMemory()
	}
	return &arena{p: p, cur: (*C.pgbind_ArenaCursor)(unsafe.Pointer(p))}, nil
}

func (a *arena) free() { C.pgbind_Arena_Free(a.p) }

// alloc returns size zeroed bytes aligned for any AST struct, nil when out of memory.
func (a *arena) alloc(size C.size_t) unsafe.Pointer {
	c := a.cur
	ptr := unsafe.Pointer(c.ptr)
	room := uintptr(unsafe.Pointer(c.end)) - uintptr(ptr)
	var p unsafe.Pointer
	if uintptr(size) <= room {
		p = ptr
		c.ptr = (*C.char)(unsafe.Add(ptr, (uintptr(size)+C.PGBIND_ARENA_ALIGN-1)&^(C.PGBIND_ARENA_ALIGN-1)))
	} else {
		p = C.pgbind_Arena_AllocSlow(a.p, size)
		if p == nil {
			return nil
		}
	}
	b := unsafe.Slice((*byte)(p), int(size))
	for i := range b {
		b[i] = 0
	}
	return p
}

// str copies s into the arena, NUL-terminated ("" is left NULL by the callers, as pgbind's
// decoder does).
func (a *arena) str(s string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, fmt.Errorf("pg_query: a string of the tree holds a NUL byte: %q", s)
	}
	p := a.alloc(C.size_t(len(s) + 1))
	if p == nil {
		return nil, errNoMemory()
	}
	copy(unsafe.Slice((*byte)(p), len(s)), s)
	return (*C.char)(p), nil
}

// buildNodes builds a repeated node field's array; a nil or empty Node is a NULL cell.
func buildNodes(a *arena, v []*Node, depth int) (**C.pgbind_Node, error) {
	arr := (**C.pgbind_Node)(a.alloc(C.size_t(len(v)) * C.size_t(unsafe.Sizeof((*C.pgbind_Node)(nil)))))
	if arr == nil {
		return nil, errNoMemory()
	}
	cells := unsafe.Slice(arr, len(v))
	for i, n := range v {
		if n == nil {
			continue
		}
		p, err := makeNode(a, n, depth)
		if err != nil {
			return nil, err
		}
		cells[i] = p
	}
	return arr, nil
}
