//! build.rs -- compiles pgbind's C runtime and generated C with the `cc` crate against the
//! system's libpg_query, then generates the owned message types (prost-build) and the FFI mirror
//! of the C API (bindgen). No make, no pgbind-gen: the one way through, in the checkout and in a
//! packaged crate alike.
//!
//! The C sources and the proto: `csrc/` in a packaged crate (`make dist` puts the runtime, the
//! generated C and the pg_query.proto they were generated from there); in the pgbind checkout,
//! `targets/c/runtime`, the generated C of the linked libpg_query's major
//! (`targets/c/generated/pgNN`: the checkout holds one folder per major, and the crate's own
//! generated Rust is for the major make generates every target for, the library's) and the
//! installed pg_query.proto.
//! libpg_query and the PostgreSQL headers: `PG_QUERY_DIR` (a libpg_query source/build tree, as for
//! make: its pg_query.h, libpg_query.a and src/postgres/include), else Debian's libpg-query-dev and
//! postgresql-server-dev-MAJOR. A libpg_query of another PostgreSQL major than the generated
//! code's is refused; every missing input is an error that names the Debian package.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fail(msg: &str) -> ! {
    eprintln!("pgbind build: error: {}", msg);
    std::process::exit(1);
}

/// The value of `#define NAME value` in a header.
fn define(header: &Path, name: &str) -> Option<String> {
    let text = fs::read_to_string(header).ok()?;
    text.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("#define"), Some(n), Some(v)) if n == name => Some(v.trim_matches('"').to_string()),
            _ => None,
        }
    })
}

/// Where the build takes libpg_query from.
struct PgQuery {
    header: PathBuf,           // pg_query.h
    includes: Vec<PathBuf>,    // for pg_query.h, pg_query_internal.h
    server: PathBuf,           // the PostgreSQL headers (postgres.h)
    link: Vec<String>,         // the compiler's arguments that link it (feature probes)
    proto: PathBuf,            // pg_query.proto of the library (used in the checkout)
}

/// The pg_query.h the build takes: `PG_QUERY_DIR`'s, else the installed one.
fn pg_query_header() -> PathBuf {
    match env::var_os("PG_QUERY_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("pg_query.h"),
        None => PathBuf::from("/usr/include/pg_query.h"),
    }
}

fn pg_query(major: &str) -> PgQuery {
    if let Some(dir) = env::var_os("PG_QUERY_DIR").filter(|d| !d.is_empty()).map(PathBuf::from) {
        let lib = dir.join("libpg_query.a");
        for need in [dir.join("pg_query.h"), lib.clone(), dir.join("src/postgres/include/postgres.h")] {
            if !need.exists() {
                fail(&format!("PG_QUERY_DIR={}: no {} (a built libpg_query tree has it)", dir.display(), need.display()));
            }
        }
        return PgQuery {
            header: dir.join("pg_query.h"),
            includes: vec![dir.clone(), dir.join("src"), dir.join("protobuf"), dir.join("vendor")],
            server: dir.join("src/postgres/include"),
            link: vec![lib.display().to_string()],
            proto: dir.join("protobuf/pg_query.proto"),
        };
    }
    let header = PathBuf::from("/usr/include/pg_query.h");
    if !header.exists() {
        fail("/usr/include/pg_query.h not found: install Debian's libpg-query-dev (or set PG_QUERY_DIR to a libpg_query tree)");
    }
    let server = PathBuf::from(format!("/usr/include/postgresql/{}/server", major));
    if !server.join("postgres.h").exists() {
        fail(&format!(
            "PostgreSQL {m}'s headers not found ({}): install Debian's postgresql-server-dev-{m} (or set PG_QUERY_DIR)",
            server.display(),
            m = major
        ));
    }
    PgQuery {
        header,
        includes: vec![PathBuf::from("/usr/include/pg_query")],
        server,
        link: vec!["-lpg_query".to_string()],
        proto: PathBuf::from("/usr/include/pg_query/pg_query.proto"),
    }
}

/// Whether a program calling `symbol` links against the library (the Makefile's HAVE_SYMBOL).
fn have_symbol(build: &cc::Build, pq: &PgQuery, out_dir: &Path, symbol: &str) -> bool {
    let src = out_dir.join(format!("probe_{}.c", symbol));
    fs::write(&src, format!("char {s}(void); int main(void) {{ return (int){s}(); }}\n", s = symbol)).unwrap();
    let mut cmd = build.get_compiler().to_command();
    cmd.arg("-o").arg(out_dir.join("probe")).arg(&src).args(&pq.link);
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-env-changed=PG_QUERY_DIR");

    // The C sources: the package's csrc/ (its generated/ is one major's), else the checkout's
    // targets/c, whose generated/pgNN is chosen by the library's major below.
    let packaged = manifest.join("csrc");
    let (c_root, proto_in_package) = if packaged.is_dir() {
        (packaged.clone(), Some(packaged.join("pg_query.proto")))
    } else {
        (manifest.join("../c"), None)
    };
    let runtime = c_root.join("runtime");
    let header_major = |header: &Path| {
        define(header, "PG_VERSION_NUM").and_then(|num| num.parse::<u32>().ok()).map(|n| (n / 10000).to_string())
    };
    let generated = if proto_in_package.is_some() {
        c_root.join("generated")
    } else {
        let header = pg_query_header();
        let m = header_major(&header).unwrap_or_else(|| {
            fail(&format!(
                "no PG_VERSION_NUM in {}: install Debian's libpg-query-dev (or set PG_QUERY_DIR to a libpg_query tree)",
                header.display()
            ))
        });
        c_root.join("generated").join(format!("pg{}", m))
    };
    let ast = generated.join("pgbind_ast.h");
    let major = define(&ast, "PGBIND_PG_MAJOR").unwrap_or_else(|| {
        fail(&format!("no PGBIND_PG_MAJOR in {}: the crate's generated C for that major is missing (make generate)", ast.display()))
    });
    for dir in [&runtime, &generated] {
        println!("cargo:rerun-if-changed={}", dir.display());
    }

    // libpg_query, of the generated code's major.
    let pq = pg_query(&major);
    let num = define(&pq.header, "PG_VERSION_NUM").unwrap_or_else(|| fail(&format!("no PG_VERSION_NUM in {}", pq.header.display())));
    let lib_major = header_major(&pq.header).unwrap_or_default();
    if lib_major != major {
        fail(&format!(
            "{} is libpg_query for PostgreSQL {} (PG_VERSION_NUM {}), but this crate's generated code is for PostgreSQL {}: \
             use pgbind's package for {} (version 0.{}.*), or point PG_QUERY_DIR at a libpg_query {} tree",
            pq.header.display(), lib_major, num, major, lib_major, lib_major, major
        ));
    }
    let proto = proto_in_package.unwrap_or_else(|| pq.proto.clone());

    // The runtime and the generated C, with the entry points the linked library offers (as the
    // Makefile probes them): forks' pg_query_deparse_nodes; deparseRawStmt with the library's own
    // PostgreSQL headers (a thread-local error stack); 18.1's pg_query_scan_tokens.
    let mut build = cc::Build::new();
    build
        .include(&runtime)
        .include(&generated)
        .includes(&pq.includes)
        .include(&pq.server)
        .flag("-std=c11")
        .define("_POSIX_C_SOURCE", "200809L")
        .define("_DEFAULT_SOURCE", None)
        .opt_level(2)
        .warnings(false);
    let thread_local_stack = fs::read_to_string(pq.server.join("utils/elog.h"))
        .map(|t| t.contains("__thread sigjmp_buf *PG_exception_stack"))
        .unwrap_or(false);
    if have_symbol(&build, &pq, &out_dir, "pg_query_deparse_nodes") {
        build.define("PGBIND_HAVE_DEPARSE_NODES", None);
    }
    if thread_local_stack && have_symbol(&build, &pq, &out_dir, "deparseRawStmt") {
        build.define("PGBIND_HAVE_DEPARSE_RAW_STMT", None);
    }
    if have_symbol(&build, &pq, &out_dir, "pg_query_scan_tokens") {
        build.define("PGBIND_HAVE_SCAN_TOKENS", None);
    }
    let mut sources: Vec<PathBuf> = fs::read_dir(&runtime)
        .unwrap_or_else(|e| fail(&format!("{}: {}", runtime.display(), e)))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |x| x == "c"))
        .collect();
    sources.sort();
    build.files(&sources);
    build.try_compile("pgbind").unwrap_or_else(|e| fail(&format!("compiling the C runtime (install Debian's gcc): {}", e)));

    // libpg_query after libpgbind.
    for arg in &pq.link {
        if let Some(name) = arg.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={}", name);
        } else {
            let path = Path::new(arg);
            println!("cargo:rustc-link-search=native={}", path.parent().unwrap().display());
            println!("cargo:rustc-link-lib=static={}", path.file_stem().unwrap().to_string_lossy().trim_start_matches("lib"));
        }
    }
    println!("cargo:rustc-link-lib=pthread");

    // The owned message types: prost-build on the very proto the C side was generated from.
    if !proto.exists() {
        fail(&format!("pg_query.proto not found at '{}': install Debian's libpg-query-dev", proto.display()));
    }
    println!("cargo:rerun-if-changed={}", proto.display());
    if env::var_os("PROTOC").is_none() && Command::new("protoc").arg("--version").output().is_err() {
        fail("protoc not found: install Debian's protobuf-compiler (or set PROTOC)");
    }
    let proto_dir = proto.parent().unwrap().to_path_buf();
    // pg_query.SummaryResult (pgbind_summary_encode's bytes, pg_query.rs's `protobuf::SummaryResult`):
    // the major's pg_query.proto declares it from 18 on, else the runtime's summary.proto does
    // (one declaration only: both are package pg_query, one generated file).
    let mut protos = vec![proto.clone()];
    let declares_summary = fs::read_to_string(&proto).map(|t| t.contains("message SummaryResult")).unwrap_or(false);
    if !declares_summary {
        let summary = runtime.join("summary.proto");
        if !summary.exists() {
            fail(&format!("{} not found: the crate's C runtime is incomplete", summary.display()));
        }
        protos.push(summary);
    }
    // Every message, oneof and enum derives serde::Serialize, as pg_query.rs's do.
    prost_build::Config::new()
        .out_dir(&out_dir)
        .type_attribute(".", "#[derive(serde::Serialize)]")
        .compile_protos(&protos, &[&proto_dir, &runtime])
        .unwrap_or_else(|e| fail(&format!("prost-build on {}: {}", proto.display(), e)));

    // The FFI mirror of the C API, pgbind's and (for the verification suite and the benchmark's
    // baselines) libpg_query's.
    let wrapper = out_dir.join("ffi_wrapper.h");
    fs::write(
        &wrapper,
        "#include \"pgbind.h\"\n#include \"pgbind_reflect.h\"\n#include \"pgbind_json.h\"\n#include <pg_query.h>\n",
    )
    .unwrap();
    let mut builder = bindgen::Builder::default()
        .header(wrapper.to_string_lossy())
        .clang_arg(format!("-I{}", runtime.display()))
        .clang_arg(format!("-I{}", generated.display()))
        .clang_arg(format!("-I{}", pq.header.parent().unwrap().display()))
        .allowlist_function("pgbind_.*")
        .allowlist_function("pg_query_(parse_plpgsql|free_plpgsql_parse_result|parse_protobuf|free_protobuf_parse_result|deparse_protobuf|free_deparse_result|fingerprint|free_fingerprint_result|split_with_parser|split_with_scanner|free_split_result|parse|free_parse_result|raw_parse|free_raw_parse_result|scan|free_scan_result|normalize|free_normalize_result)")
        .allowlist_type("pgbind_.*")
        .allowlist_var("pgbind_.*")
        .allowlist_var("PGBIND_.*")
        .allowlist_var("PG_VERSION_NUM")
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .derive_default(true)
        .size_t_is_usize(true)
        // tests/layout.rs checks every struct against the C compiler's own sizeof and offsetof
        .layout_tests(false);
    for inc in &pq.includes {
        builder = builder.clang_arg(format!("-I{}", inc.display()));
    }
    let bindings = builder
        .generate()
        .unwrap_or_else(|_| fail(&format!("bindgen could not read {} (libclang: install Debian's libclang-dev)", runtime.join("pgbind.h").display())));
    bindings.write_to_file(out_dir.join("ffi.rs")).unwrap();
}
