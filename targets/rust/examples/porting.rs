//! A query inspector written against pg_query.rs's documented API, the kind a proxy or a linter
//! runs on every query: what a statement is, which tables it reads and writes, which columns its
//! filters use, its fingerprint and normalized text, a short form for logs, a rewrite.
//!
//! Ported to pgbind by changing one line: `use pg_query;` became `use pgbind::pg_query;`. The
//! only other change is the rewrite at the end: pg_query.rs's `nodes_mut()` is `unsafe` and
//! returns raw pointers; pgbind's takes a callback offered one `&mut` at a time.
//!
//! `cargo run --release --example porting [SQL]`
use pgbind::pg_query; // was: use pg_query;
use pg_query::{NodeEnum, NodeMut, NodeRef};

fn main() -> Result<(), pg_query::Error> {
    let sql = std::env::args().nth(1).unwrap_or_else(|| {
        "WITH recent AS (SELECT * FROM orders WHERE created_at > now() - interval '1 day') \
         SELECT c.name, count(*) FILTER (WHERE o.total > (SELECT avg(total) FROM orders_archive)) \
         FROM customers c JOIN recent o ON o.customer_id = c.id WHERE c.region = 'eu' AND o.status = 'open' \
         GROUP BY c.name"
            .to_string()
    });
    let result = pg_query::parse(&sql)?;
    println!("statements:     {:?}", result.statement_types());
    let mut tables = result.tables();
    tables.sort();
    println!("tables:         {:?}", tables);
    println!("select tables:  {:?}", result.select_tables());
    println!("dml tables:     {:?}", result.dml_tables());
    println!("ddl tables:     {:?}", result.ddl_tables());
    println!("cte names:      {:?}", result.cte_names);
    println!("functions:      {:?}", result.functions());
    println!("filter columns: {:?}", result.filter_columns);
    println!("fingerprint:    {}", pg_query::fingerprint(&sql)?.hex);
    println!("normalized:     {}", pg_query::normalize(&sql)?);
    println!("truncated (60): {}", result.truncate(60)?);

    // Every ColumnRef of the tree, by walking the nodes (NodeRef, depth, Context, in a WHERE).
    let columns = result
        .protobuf
        .nodes()
        .into_iter()
        .filter(|(n, _, _, _)| matches!(n, NodeRef::ColumnRef(_)))
        .count();
    println!("column refs:    {}", columns);

    // Rewrite: send every table to the "archive" schema and deparse.
    let mut tree = result.protobuf.clone();
    let ctes = result.cte_names.clone();
    tree.nodes_mut(|child| {
        if let NodeMut::RangeVar(rv) = child.node() {
            if !ctes.contains(&rv.relname) {
                rv.schemaname = "archive".to_string();
            }
        }
        false
    })?;
    println!("rewritten:      {}", pg_query::deparse(&tree)?);
    let _ = NodeEnum::String; // the enum of node kinds is pg_query.rs's NodeEnum
    Ok(())
}
