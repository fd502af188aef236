package pg_query

// What the verification needs to check the views: a NULL cell of a repeated node field, and the
// number of nodes of an owned tree counted through protobuf reflection (a walker of its own, to
// compare Tree.Walk with).

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// viewOwnCell is a repeated node field's cell: a NULL cell is a Node with nothing set.
func viewOwnCell(n NodeView) *Node {
	if n.IsNil() {
		return &Node{}
	}
	return viewOwnNode(n)
}

// countNodes counts what Tree.Walk visits in the owned tree m: every Node with its oneof set,
// and every value of another oneof (A_Const.val, whose members are node kinds).
func countNodes(m protoreflect.Message) int {
	n := 0
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		if fd.ContainingOneof() != nil {
			n++ // a Node's oneof (the node itself), or a oneof of node kinds
		}
		if fd.IsList() {
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				n += countNodes(l.Get(i).Message())
			}
		} else {
			n += countNodes(v.Message())
		}
		return true
	})
	return n
}
