// makefuncs.go -- the pg_query_go v6 Make* helpers that are not one message built from some of
// its fields, so targets/go/makefuncs.txt cannot declare them (those are generated into
// makefuncs_gen.go): each says why it is written by hand. Names and signatures are
// pg_query_go's (v6_test.go checks them).

package pg_query

// MakeIntNode returns an Integer node holding ival (an int32, as in PostgreSQL: pg_query_go's
// signature takes an int64 and truncates). By hand: it converts its argument.
func MakeIntNode(ival int64) *Node { return (&Integer{Ival: int32(ival)}).node() }

// MakeAConstStrNode returns a string constant ('str') at location. By hand: it fills A_Const's
// val oneof with a String it builds.
func MakeAConstStrNode(str string, location int32) *Node {
	return (&A_Const{Val: &A_Const_Sval{Sval: &String{Sval: str}}, Location: location}).node()
}

// MakeAConstIntNode returns an integer constant at location. By hand: it fills A_Const's val oneof
// with an Integer converted from an int64.
func MakeAConstIntNode(ival int64, location int32) *Node {
	return (&A_Const{Val: &A_Const_Ival{Ival: &Integer{Ival: int32(ival)}}, Location: location}).node()
}

// MakeFullRangeVar returns schemaname.relname with the alias alias, as MakeSimpleRangeVar sets
// the rest. By hand: it builds an Alias from a string and starts from another helper.
func MakeFullRangeVar(schemaname string, relname string, alias string, location int32) *RangeVar {
	r := MakeSimpleRangeVar(relname, location)
	r.Schemaname = schemaname
	r.Alias = &Alias{Aliasname: alias}
	return r
}

// MakeFullRangeVarNode is MakeFullRangeVar as a Node. By hand: it calls MakeFullRangeVar.
func MakeFullRangeVarNode(schemaname string, relname string, alias string, location int32) *Node {
	return MakeFullRangeVar(schemaname, relname, alias, location).node()
}
