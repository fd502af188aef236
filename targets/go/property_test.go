package pg_query

// The property test: random trees of every message with every field set (random_gen_test.go),
// through both directions of the generated converters:
//   make  Go tree -> C AST (make_gen.go) -> pgbind's C encoder -> proto.Unmarshal == the tree
//   own   proto.Marshal of the tree -> pgbind's C decoder -> Go tree (own_gen.go) == the tree
//   views the same C tree copied through the views' accessors (views_gen.go) == the tree
// and ScanResult (which has no C encoder) through make and own. Reports which messages, node
// kinds and fields were covered, by name; anything short of all of them is a failure.

import (
	"flag"
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"
)

var rounds = flag.Int("rounds", 4, "property test: rounds over every node kind")

func TestProperty(t *testing.T) {
	r := newGen(0x5eed)
	kindsChecked := map[string]bool{}
	for round := 0; round < *rounds; round++ {
		for k, kind := range randNodeKinds {
			tree := randParseResult(r, 0)
			if len(tree.Stmts) == 0 {
				tree.Stmts = append(tree.Stmts, &RawStmt{})
			}
			tree.Stmts[0].Stmt = randNodeKind(r, k, 1)
			what := func(dir string) string { return dir + " for a tree whose statement is " + kind }

			made, err := encode(tree)
			back := &ParseResult{}
			if err == nil {
				err = proto.Unmarshal(made, back)
			}
			okMake := err == nil && proto.Equal(back, tree)
			check(t, okMake, what("make (Go -> C -> pgbind_encode -> proto.Unmarshal)"), func() string { return errString(err) })

			bytes, err := proto.Marshal(tree)
			var owned *ParseResult
			if err == nil {
				owned, err = decode(bytes)
			}
			okOwn := err == nil && proto.Equal(owned, tree)
			check(t, okOwn, what("own (proto.Marshal -> pgbind_decode -> Go)"), func() string { return errString(err) })
			okViews := false
			if tr, err := decodeTree(bytes); err == nil {
				okViews = proto.Equal(viewOwnParseResult(tr.Root()), tree)
				tr.Close()
			}
			check(t, okViews, what("views (pgbind_decode -> a copy through every accessor)"), func() string { return "" })
			if okMake && okOwn && okViews {
				kindsChecked[kind] = true
			}
		}
		scan := randScanResult(r, 0)
		back, err := scanRoundTrip(scan)
		check(t, err == nil && proto.Equal(back, scan), "ScanResult (make -> own)", func() string { return errString(err) })
	}
	var missingMsgs, missingFields []string
	total := 0
	for _, m := range randMessages {
		if !r.messages[m.name] {
			missingMsgs = append(missingMsgs, m.name)
		}
		for _, f := range m.fields {
			total++
			if !r.fields[[2]string{m.name, f}] {
				missingFields = append(missingFields, m.name+"."+f)
			}
		}
	}
	fmt.Printf("go property: %d rounds; messages %d/%d built, node kinds %d/%d as statements through both directions and the views, fields %d/%d set\n",
		*rounds, len(randMessages)-len(missingMsgs), len(randMessages), len(kindsChecked), len(randNodeKinds),
		total-len(missingFields), total)
	check(t, len(missingMsgs) == 0, "coverage: messages never built", func() string { return fmt.Sprint(missingMsgs) })
	check(t, len(missingFields) == 0, "coverage: fields never set", func() string { return fmt.Sprint(missingFields) })
	check(t, len(kindsChecked) == len(randNodeKinds), "coverage: node kinds not checked", func() string { return "" })
}
