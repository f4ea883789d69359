//! Memory for the transposition table: one fixed block of zeroed slots,
//! aligned to 2 MiB and, on Linux, asked for in transparent huge pages.
//!
//! A probe lands on a random cache line of the table. In 4 KiB pages a
//! 64 MiB table spans 16,384 pages, far more than the TLB holds, so nearly
//! every probe also walks the page tables; in 2 MiB pages it spans 32. The
//! kernel's default (`madvise` mode) gives huge pages only to memory that
//! asks, before it is first touched, so the block cannot be a `Vec`.

use std::alloc::{Layout, alloc, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a huge page, and the alignment of blocks at least as large.
const HUGE_PAGE: usize = 2 << 20;

/// Types whose all-zero bit pattern is a valid value (integers, atomics,
/// and structs and arrays of them).
///
/// # Safety
/// Implementors must be valid when every byte is zero.
pub(crate) unsafe trait Zeroable: Sized {}

/// A fixed-length array of `T`, zeroed at creation, in memory of its own.
pub(crate) struct Block<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: a `Block` owns its slots as a `Box<[T]>` would.
unsafe impl<T: Zeroable + Send> Send for Block<T> {}
// SAFETY: shared access hands out only `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for Block<T> {}

impl<T: Zeroable> Block<T> {
    /// `len` zeroed slots, every page touched (so the cost is paid now,
    /// not during the first search); `None` if the system refuses the
    /// memory or `len` is zero.
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        let size = len.checked_mul(std::mem::size_of::<T>())?;
        if size == 0 {
            return None;
        }
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        advise_huge_pages(raw, size);
        // SAFETY: `raw` is valid for `size` bytes, and zero is a valid `T`.
        unsafe { raw.write_bytes(0, size) };
        Some(Block { ptr, len, layout })
    }
}

impl<T: Zeroable> Deref for Block<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised slots live at `ptr` while `self` does.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Block<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout; `T` needs no drop
        // beyond its bytes (`Zeroable` types are plain data).
        unsafe { dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

/// Asks the kernel to back `size` bytes at `ptr` with huge pages. Only a
/// hint: where it is refused, or elsewhere than Linux, the pages are small.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    use std::ffi::{c_int, c_void};
    const MADV_HUGEPAGE: c_int = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    if size >= HUGE_PAGE {
        // SAFETY: the range is one allocation of ours; advice changes no
        // contents. A refusal (an old kernel, huge pages off) is harmless.
        let refused = unsafe { madvise(ptr.cast(), size, MADV_HUGEPAGE) } != 0;
        if refused {
            log::debug!("no transparent huge pages for the hash table");
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics of zero bytes are zero.
    unsafe impl Zeroable for Line {}

    #[test]
    fn blocks_are_zeroed_aligned_and_writable() {
        for len in [1, 1000, (HUGE_PAGE / 64) * 3] {
            let mut block = Block::<Line>::zeroed(len).unwrap();
            assert_eq!(block.len(), len);
            let align = if len * 64 >= HUGE_PAGE { HUGE_PAGE } else { 64 };
            assert_eq!(block.as_ptr() as usize % align, 0);
            assert!(
                block
                    .iter()
                    .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0))
            );
            block[len - 1].0[7].store(9, Ordering::Relaxed);
            *block[0].0[0].get_mut() = 3;
            assert_eq!(block[len - 1].0[7].load(Ordering::Relaxed), 9);
            assert_eq!(block[0].0[0].load(Ordering::Relaxed), 3);
        }
        assert!(Block::<Line>::zeroed(0).is_none());
        assert!(Block::<Line>::zeroed(usize::MAX).is_none());
    }
}
