//! layout.rs -- where the Rust side puts every member of pgbind's C structs (targets/rust/generated/layout.rs),
//! for the test that checks it against the C compiler's layout.
#![allow(clippy::all)]
use crate::ffi;

/// The offset of a member, from a pointer to uninitialised memory (no reference is made to it).
macro_rules! offset {
    ($t:ident, $f:ident) => {{
        let u = std::mem::MaybeUninit::<ffi::$t>::uninit();
        let base = u.as_ptr();
        // SAFETY: addr_of! takes the member's address without reading or referencing it.
        (unsafe { std::ptr::addr_of!((*base).$f) } as usize) - base as usize
    }};
}

include!("../generated/layout.rs");
