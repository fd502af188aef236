// port: which tables a query reads, a rewrite, and the other calls of pg_query_go's API (v4's, and
// v6's parser package, Make* helpers and new functions), as a program using pg_query_go writes
// them. Only the import lines name pgbind's module.
package main

import (
	"errors"
	"fmt"
	"os"

	pg_query "github.com/pgbind/pgbind/targets/go"
	"github.com/pgbind/pgbind/targets/go/parser"
)

func main() {
	tree, err := pg_query.Parse("SELECT a, b FROM s.t JOIN u ON t.id = u.id WHERE b > 1")
	if err != nil {
		fail(err)
	}
	sel := tree.GetStmts()[0].GetStmt().GetSelectStmt()
	join := sel.GetFromClause()[0].GetJoinExpr()
	for _, side := range []*pg_query.Node{join.GetLarg(), join.GetRarg()} {
		if rv := side.GetRangeVar(); rv != nil {
			fmt.Printf("reads %s\n", rv.GetRelname())
		}
	}

	// rewrite: another table, no predicate
	join.GetRarg().GetRangeVar().Relname = "u_archive"
	sel.WhereClause = nil
	sql, err := pg_query.Deparse(tree)
	if err != nil {
		fail(err)
	}
	fmt.Println(sql)

	// a tree built by hand, as pg_query_go users build them
	built := &pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{
		Node: &pg_query.Node_SelectStmt{SelectStmt: &pg_query.SelectStmt{
			TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Val: &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
					Val: &pg_query.A_Const_Ival{Ival: &pg_query.Integer{Ival: 42}}}}}}}}},
			LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
			Op:          pg_query.SetOperation_SETOP_NONE,
		}}}}}}
	sql, err = pg_query.Deparse(built)
	if err != nil {
		fail(err)
	}
	fmt.Println(sql)

	fp, err := pg_query.Fingerprint("SELECT * FROM t WHERE a = 1")
	if err != nil {
		fail(err)
	}
	fp2, _ := pg_query.Fingerprint("select * from t where a = 2")
	fmt.Println("same fingerprint:", fp == fp2)
	norm, _ := pg_query.Normalize("SELECT * FROM t WHERE a = 1 AND b = 'x'")
	fmt.Println(norm)
	scan, _ := pg_query.Scan("SELECT 1 -- hi")
	fmt.Println("tokens:", len(scan.GetTokens()))
	stmts, _ := pg_query.SplitWithParser("SELECT 1; SELECT 2;", true)
	fmt.Println("statements:", len(stmts))
	json, _ := pg_query.ParseToJSON("SELECT 1")
	fmt.Println("json bytes:", len(json) > 0)

	_, err = pg_query.Parse("SELECT FROM WHERE")
	var pgErr *pg_query.Error
	if errors.As(err, &pgErr) {
		fmt.Printf("error: %s at %d\n", pgErr.Message, pgErr.Cursorpos)
	}

	// pg_query_go v6: the parser package's Error, its README's Make* example, IsUtilityStmt,
	// HashXXH3_64 (of nothing: xxHash's documented 2d06800538d394c2)
	if e, ok := err.(*parser.Error); ok {
		fmt.Println("parser.Error from", e.Filename)
	}
	hello, err := pg_query.Parse("SELECT 42")
	if err != nil {
		fail(err)
	}
	hello.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().Val = pg_query.MakeAConstStrNode("Hello World", -1)
	sql, err = pg_query.Deparse(hello)
	if err != nil {
		fail(err)
	}
	fmt.Println(sql)
	utility, _ := pg_query.IsUtilityStmt("SELECT 1; SHOW fsync")
	fmt.Println("utility:", utility)
	fmt.Printf("xxh3: %016x\n", pg_query.HashXXH3_64(nil, 0))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
