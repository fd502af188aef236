//! build.rs -- builds (or finds) libpgbind, generates the FFI mirror of its C API with bindgen and
//! the owned message types with prost-build, from the same inputs the C library is built from.
//!
//! libpgbind comes from the pgbind checkout this crate sits in (`make lib`, which here only names
//! the Debian packages that are missing: `PGBIND_DEPS=check`; `make` installs them), or from `PGBIND_LIB_DIR` (a directory holding
//! libpgbind.a) with `PGBIND_PROTO` (the pg_query.proto it was generated from). `PG_QUERY_DIR`
//! (a libpg_query tree, as for `make`) is passed on to make. Every missing tool is an error that
//! names the Debian package to install.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fail(msg: &str) -> ! {
    eprintln!("pgbind build: error: {}", msg);
    std::process::exit(1);
}

/// Runs make in the checkout; returns its standard output.
fn make(root: &Path, args: &[&str]) -> String {
    let out = Command::new("make")
        .arg("--no-print-directory")
        .env("PGBIND_DEPS", "check")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run make ({}): install Debian's 'make' package", e)));
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stdout));
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        fail(&format!("`make -C {} {}` failed (output above)", root.display(), args.join(" ")));
    }
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../..").canonicalize().unwrap_or_else(|e| fail(&format!("no pgbind checkout above the crate: {}", e)));
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    for var in ["PGBIND_LIB_DIR", "PGBIND_PROTO", "PG_QUERY_DIR"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }

    // The library and what linking it needs.
    let mut lib_dir = String::new();
    let mut libs = String::from("-lpg_query");
    let mut proto = env::var("PGBIND_PROTO").unwrap_or_default();
    if let Ok(dir) = env::var("PGBIND_LIB_DIR") {
        lib_dir = dir;
        if proto.is_empty() {
            fail("PGBIND_LIB_DIR is set but PGBIND_PROTO is not: name the pg_query.proto libpgbind was generated from");
        }
    } else {
        make(&root, &["-s", "lib"]);
        for line in make(&root, &["-s", "print-build-env"]).lines() {
            if let Some((k, v)) = line.split_once('=') {
                match k {
                    "BUILD" => lib_dir = v.to_string(),
                    "PG_QUERY_LIBS" => libs = v.to_string(),
                    "PG_QUERY_PROTO" if proto.is_empty() => proto = v.to_string(),
                    _ => {}
                }
            }
        }
        for dir in ["targets/c/runtime", "targets/c/generated", "targets/c/templates", "schema"] {
            println!("cargo:rerun-if-changed={}", root.join(dir).display());
        }
        println!("cargo:rerun-if-changed={}", root.join("Makefile").display());
    }
    if !Path::new(&lib_dir).join("libpgbind.a").exists() {
        fail(&format!("no libpgbind.a in {}", lib_dir));
    }
    println!("cargo:rustc-link-search=native={}", lib_dir);
    println!("cargo:rustc-link-lib=static=pgbind");
    for lib in libs.split_whitespace() {
        if let Some(name) = lib.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={}", name);
        } else if lib.ends_with(".a") {
            let path = Path::new(lib);
            let name = path.file_stem().unwrap().to_string_lossy();
            println!("cargo:rustc-link-search=native={}", path.parent().unwrap().display());
            println!("cargo:rustc-link-lib=static={}", name.trim_start_matches("lib"));
        } else if let Some(dir) = lib.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        }
    }
    println!("cargo:rustc-link-lib=pthread");

    // The owned message types: prost-build on the very proto the C side was generated from.
    if !Path::new(&proto).exists() {
        fail(&format!("pg_query.proto not found at '{}': install Debian's libpg-query-dev", proto));
    }
    println!("cargo:rerun-if-changed={}", proto);
    if env::var_os("PROTOC").is_none() && Command::new("protoc").arg("--version").output().is_err() {
        fail("protoc not found: install Debian's protobuf-compiler (or set PROTOC)");
    }
    let proto_dir = Path::new(&proto).parent().unwrap().to_path_buf();
    prost_build::Config::new()
        .out_dir(&out_dir)
        .compile_protos(&[&proto], &[&proto_dir])
        .unwrap_or_else(|e| fail(&format!("prost-build on {}: {}", proto, e)));

    // The FFI mirror of the C API, pgbind's and (for the verification suite and the benchmark's
    // baselines) libpg_query's.
    let wrapper = out_dir.join("ffi_wrapper.h");
    std::fs::write(
        &wrapper,
        "#include \"pgbind.h\"\n#include \"pgbind_reflect.h\"\n#include \"pgbind_json.h\"\n#include <pg_query.h>\n",
    )
    .unwrap();
    let mut builder = bindgen::Builder::default()
        .header(wrapper.to_string_lossy())
        .clang_arg(format!("-I{}", root.join("targets/c/runtime").display()))
        .clang_arg(format!("-I{}", root.join("targets/c/generated").display()))
        .allowlist_function("pgbind_.*")
        .allowlist_function("pg_query_(parse_protobuf|free_protobuf_parse_result|deparse_protobuf|free_deparse_result|fingerprint|free_fingerprint_result|split_with_parser|split_with_scanner|free_split_result|parse|free_parse_result|raw_parse|free_raw_parse_result|scan|free_scan_result|normalize|free_normalize_result)")
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
    let includes = env::var("PG_QUERY_INCLUDES_FOR_BINDGEN").unwrap_or_else(|_| "-I/usr/include/pg_query".to_string());
    for inc in includes.split_whitespace() {
        builder = builder.clang_arg(inc);
    }
    if let Some(dir) = env::var("PG_QUERY_DIR").ok().filter(|d| !d.is_empty()) {
        builder = builder.clang_arg(format!("-I{}", dir));
    }
    let bindings = builder
        .generate()
        .unwrap_or_else(|_| fail("bindgen could not read targets/c/runtime/pgbind.h (libclang: install Debian's libclang-dev)"));
    bindings.write_to_file(out_dir.join("ffi.rs")).unwrap();
}
