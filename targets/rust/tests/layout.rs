//! Every AST struct's size and every member's offset on the Rust side (bindgen's mirror) equal
//! the C compiler's: pgbind_message_descs holds the sizeof and offsetof libpgbind was compiled with.
use pgbind::ffi;
use std::ffi::CStr;

#[test]
fn every_struct_and_member_is_where_the_c_compiler_put_it() {
    let rust = pgbind::layout::rust_layouts();
    assert_eq!(rust.len(), ffi::PGBIND_MESSAGE_COUNT as usize);
    let mut checked = 0;
    for (i, (name, size, fields)) in rust.iter().enumerate() {
        // SAFETY: pgbind_message_descs has PGBIND_MESSAGE_COUNT entries, in the same order.
        let d = unsafe { &*ffi::pgbind_message_descs.as_ptr().add(i) };
        assert_eq!(unsafe { CStr::from_ptr(d.name) }.to_str().unwrap(), *name);
        assert_eq!(d.size as usize, *size, "sizeof(pgbind_{})", name);
        assert_eq!(d.n_fields as usize, fields.len(), "{}'s member count", name);
        for (k, (fname, off, count_off)) in fields.iter().enumerate() {
            let fd = unsafe { &*d.fields.add(k) };
            assert_eq!(unsafe { CStr::from_ptr(fd.name) }.to_str().unwrap(), *fname);
            assert_eq!(fd.offset as usize, *off, "offsetof(pgbind_{}, {})", name, fname);
            assert_eq!(fd.count_offset as usize, *count_off, "offsetof(pgbind_{}, n_{})", name, fname);
            checked += 1;
        }
    }
    eprintln!("layout: {} structs, {} members, as the C compiler laid them out", rust.len(), checked);
}
