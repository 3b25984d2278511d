//! The decompiler's source-file readers on arbitrary bytes: SMD text (as the bytes decode,
//! lossily) and 8-bit bitmaps. Neither may panic; an SMD error names a line inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match studio_smd::read(&text) {
        Ok(smd) => {
            // What was read writes and reads back.
            let again = studio_smd::read(&smd.to_text()).expect("a written file reads back");
            assert_eq!(again.nodes.len(), smd.nodes.len());
        }
        Err(error) => assert!(error.byte <= text.len(), "{error}"),
    }
    let _ = studio_smd::bmp::read(data);
});
