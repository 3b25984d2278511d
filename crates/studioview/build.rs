//! The Windows executables' resources: the icon Explorer and the taskbar show, and the version
//! information of the file's Properties ▸ Details, from this package's Cargo fields. Compiled
//! with windres (mingw-w64's, when cross-building from Linux) through `winresource`. Nothing is
//! done for other systems.

fn main() {
    println!("cargo:rerun-if-changed=../../assets/icon/studioview.ico");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let mut resource = winresource::WindowsResource::new();
    resource
        .set_icon("../../assets/icon/studioview.ico")
        .set("ProductName", "studioview")
        .set("FileDescription", "studioview: a viewer for Valve studio models")
        .set("LegalCopyright", "MIT OR Apache-2.0");
    if let Err(error) = resource.compile() {
        // A build for Windows without a resource compiler would ship an exe with no icon.
        panic!("cannot compile the Windows resources (is mingw-w64's windres installed?): {error}");
    }
}
