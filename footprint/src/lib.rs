//! Shared by the footprint images: the panic handler (abort by looping; the profile sets
//! `panic = "abort"`).
#![no_std]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        cortex_m::asm::udf();
    }
}
