// makefuncs.go -- pg_query_go's Make* helpers (its makefuncs.go), under its names and signatures:
// each builds one message with the fields pg_query_go's helper sets (and the values it fixes:
// a RangeVar's inh and relpersistence, a ColumnDef's is_local, a Constraint's contype, ...) and
// wraps it as a Node with the kind's generated node() (node_gen.go). Which fields each helper
// takes is pg_query_go's hand-made choice, not a fact of the model: it is written here once, a
// line a helper.

package pg_query

// MakeStrNode returns a String node holding str.
func MakeStrNode(str string) *Node { return (&String{Sval: str}).node() }

// MakeIntNode returns an Integer node holding ival (an int32, as in PostgreSQL: pg_query_go's
// signature takes an int64 and truncates).
func MakeIntNode(ival int64) *Node { return (&Integer{Ival: int32(ival)}).node() }

// MakeListNode returns a List node holding items.
func MakeListNode(items []*Node) *Node { return (&List{Items: items}).node() }

// MakeAConstStrNode returns a string constant ('str') at location.
func MakeAConstStrNode(str string, location int32) *Node {
	return (&A_Const{Val: &A_Const_Sval{Sval: &String{Sval: str}}, Location: location}).node()
}

// MakeAConstIntNode returns an integer constant at location.
func MakeAConstIntNode(ival int64, location int32) *Node {
	return (&A_Const{Val: &A_Const_Ival{Ival: &Integer{Ival: int32(ival)}}, Location: location}).node()
}

// MakeResTargetNodeWithName returns a target named name (an INSERT's column, an UPDATE's SET).
func MakeResTargetNodeWithName(name string, location int32) *Node {
	return (&ResTarget{Name: name, Location: location}).node()
}

// MakeResTargetNodeWithVal returns a target with the value val (a SELECT's output column).
func MakeResTargetNodeWithVal(val *Node, location int32) *Node {
	return (&ResTarget{Val: val, Location: location}).node()
}

// MakeResTargetNodeWithNameAndVal returns a target named name with the value val.
func MakeResTargetNodeWithNameAndVal(name string, val *Node, location int32) *Node {
	return (&ResTarget{Name: name, Val: val, Location: location}).node()
}

// MakeSimpleRangeVar returns a table reference as the parser makes it for a bare name: inh
// true (its descendants included), relpersistence "p" (permanent).
func MakeSimpleRangeVar(relname string, location int32) *RangeVar {
	return &RangeVar{Relname: relname, Inh: true, Relpersistence: "p", Location: location}
}

// MakeSimpleRangeVarNode is MakeSimpleRangeVar as a Node.
func MakeSimpleRangeVarNode(relname string, location int32) *Node {
	return MakeSimpleRangeVar(relname, location).node()
}

// MakeFullRangeVar returns schemaname.relname with the alias alias, as MakeSimpleRangeVar sets
// the rest.
func MakeFullRangeVar(schemaname string, relname string, alias string, location int32) *RangeVar {
	r := MakeSimpleRangeVar(relname, location)
	r.Schemaname = schemaname
	r.Alias = &Alias{Aliasname: alias}
	return r
}

// MakeFullRangeVarNode is MakeFullRangeVar as a Node.
func MakeFullRangeVarNode(schemaname string, relname string, alias string, location int32) *Node {
	return MakeFullRangeVar(schemaname, relname, alias, location).node()
}

// MakeParamRefNode returns the parameter $number.
func MakeParamRefNode(number int32, location int32) *Node {
	return (&ParamRef{Number: number, Location: location}).node()
}

// MakeColumnRefNode returns a column reference of fields (String nodes, or A_Star last).
func MakeColumnRefNode(fields []*Node, location int32) *Node {
	return (&ColumnRef{Fields: fields, Location: location}).node()
}

// MakeAStarNode returns the * of a column reference.
func MakeAStarNode() *Node { return (&A_Star{}).node() }

// MakeCaseExprNode returns CASE arg WHEN ... END, args being its CaseWhen nodes.
func MakeCaseExprNode(arg *Node, args []*Node, location int32) *Node {
	return (&CaseExpr{Arg: arg, Args: args, Location: location}).node()
}

// MakeCaseWhenNode returns WHEN expr THEN result.
func MakeCaseWhenNode(expr *Node, result *Node, location int32) *Node {
	return (&CaseWhen{Expr: expr, Result: result, Location: location}).node()
}

// MakeFuncCallNode returns a call of funcname (String nodes) with args, written as a call
// (funcformat COERCE_EXPLICIT_CALL).
func MakeFuncCallNode(funcname []*Node, args []*Node, location int32) *Node {
	return (&FuncCall{Funcname: funcname, Args: args, Funcformat: CoercionForm_COERCE_EXPLICIT_CALL, Location: location}).node()
}

// MakeJoinExprNode returns larg JOIN rarg ON quals.
func MakeJoinExprNode(jointype JoinType, larg *Node, rarg *Node, quals *Node) *Node {
	return (&JoinExpr{Jointype: jointype, Larg: larg, Rarg: rarg, Quals: quals}).node()
}

// MakeAExprNode returns an operator expression (name: the operator's String nodes).
func MakeAExprNode(kind A_Expr_Kind, name []*Node, lexpr *Node, rexpr *Node, location int32) *Node {
	return (&A_Expr{Kind: kind, Name: name, Lexpr: lexpr, Rexpr: rexpr, Location: location}).node()
}

// MakeBoolExprNode returns AND, OR or NOT of args.
func MakeBoolExprNode(boolop BoolExprType, args []*Node, location int32) *Node {
	return (&BoolExpr{Boolop: boolop, Args: args, Location: location}).node()
}

// MakeSortByNode returns an ORDER BY item.
func MakeSortByNode(node *Node, sortbyDir SortByDir, sortbyNulls SortByNulls, location int32) *Node {
	return (&SortBy{Node: node, SortbyDir: sortbyDir, SortbyNulls: sortbyNulls, Location: location}).node()
}

// MakeSimpleDefElemNode returns the option defname = arg (defaction DEFELEM_UNSPEC).
func MakeSimpleDefElemNode(defname string, arg *Node, location int32) *Node {
	return (&DefElem{Defname: defname, Arg: arg, Defaction: DefElemAction_DEFELEM_UNSPEC, Location: location}).node()
}

// MakeSimpleColumnDefNode returns a column definition declared in its table (is_local).
func MakeSimpleColumnDefNode(colname string, typeName *TypeName, constraints []*Node, location int32) *Node {
	return (&ColumnDef{Colname: colname, TypeName: typeName, Constraints: constraints, IsLocal: true, Location: location}).node()
}

// MakePrimaryKeyConstraintNode returns PRIMARY KEY.
func MakePrimaryKeyConstraintNode(location int32) *Node {
	return (&Constraint{Contype: ConstrType_CONSTR_PRIMARY, Location: location}).node()
}

// MakeNotNullConstraintNode returns NOT NULL.
func MakeNotNullConstraintNode(location int32) *Node {
	return (&Constraint{Contype: ConstrType_CONSTR_NOTNULL, Location: location}).node()
}

// MakeDefaultConstraintNode returns DEFAULT rawExpr.
func MakeDefaultConstraintNode(rawExpr *Node, location int32) *Node {
	return (&Constraint{Contype: ConstrType_CONSTR_DEFAULT, RawExpr: rawExpr, Location: location}).node()
}

// MakeSimpleRangeFunctionNode returns a function in FROM (functions: its List nodes of a call
// and its column definitions).
func MakeSimpleRangeFunctionNode(functions []*Node) *Node {
	return (&RangeFunction{Functions: functions}).node()
}
