// views.go -- Tree: a parse tree kept in pgbind's C arena and read in place through the
// generated views (views_gen.go), with nothing built; ToOwned copies it into the protoc-gen-go
// types when a tree to change or keep is wanted.

package pg_query

// #include "pgbind_go.h"
import "C"

import (
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// Tree is a parse tree in pgbind's arena. Its views (Root and everything reached from it),
// their strings and arrays point into the arena: they are valid until Close, which frees it
// (a Tree that is no longer referenced is closed by the garbage collector too). A Tree may be
// read from several goroutines at once; Close must not race with reads.
type Tree struct {
	call C.go_Call // the arena, and the parse's status (one allocation with the Tree)
	once sync.Once
	root *C.pgbind_ParseResult
}

// ParseTree parses input into a Tree (one C call; nothing is built on the Go side).
func ParseTree(input string) (*Tree, error) {
	sql := cString(input)
	defer sql.release()
	t := &Tree{}
	t.root = C.go_parse(sql.ptr(), &t.call)
	if t.root == nil {
		C.pgbind_Arena_Free(t.call.arena)
		return nil, failure(&t.call.status, input, false)
	}
	runtime.SetFinalizer(t, (*Tree).Close)
	return t, nil
}

func newTree(arena *C.pgbind_Arena, root *C.pgbind_ParseResult) *Tree {
	t := &Tree{root: root}
	t.call.arena = arena
	runtime.SetFinalizer(t, (*Tree).Close)
	return t
}

// Close frees the tree's arena; its views must not be used afterwards. Closing twice is allowed.
func (t *Tree) Close() {
	t.once.Do(func() {
		C.pgbind_Arena_Free(t.call.arena)
		t.call.arena, t.root = nil, nil
	})
}

// Root is the tree's ParseResult.
func (t *Tree) Root() ParseResultView { return ParseResultView{t.root} }

// ToOwned copies the tree into the protoc-gen-go types: what Parse returns.
func (t *Tree) ToOwned() (*ParseResult, error) { return t.Root().ToOwned() }

// NodeView reads a node in a Tree's arena: ask for its kind with the accessor of that kind
// (n.SelectStmt() returns the SelectStmtView and true when it is one), or its name with Kind.
type NodeView struct{ p *C.pgbind_Node }

// IsNil says whether the field was unset (or the cell NULL: SELECT DISTINCT's).
func (n NodeView) IsNil() bool { return n.p == nil }

// Kind is the node's kind, the name of its message ("SelectStmt"); "" for a nil node.
func (n NodeView) Kind() string {
	if n.p == nil {
		return ""
	}
	return kindName(n.p.tag)
}

// ToOwned copies the node into a Node (nil for a nil view).
func (n NodeView) ToOwned() (*Node, error) {
	if n.p == nil {
		return nil, nil
	}
	return ownNode(n.p)
}

// Walk calls f on n and then on every node below it, depth first in field order; f returns
// false to stop the walk. Walk reports whether it ran to the end.
func (n NodeView) Walk(f func(NodeView) bool) bool { return walkNode(n.p, f) }

// Walk walks every statement of the tree (see NodeView.Walk).
func (t *Tree) Walk(f func(NodeView) bool) bool { return walkParseResult(t.root, f) }

// NodeList is a repeated node field: a view of the arena's array.
type NodeList struct{ s []*C.pgbind_Node }

func (l NodeList) Len() int          { return len(l.s) }
func (l NodeList) At(i int) NodeView { return NodeView{l.s[i]} }

// viewString is a C string of the arena as a Go string without a copy ("" for NULL).
func viewString(p *C.char) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	var s string
	h := (*reflect.StringHeader)(unsafe.Pointer(&s))
	h.Data, h.Len = uintptr(unsafe.Pointer(p)), n
	return s
}
