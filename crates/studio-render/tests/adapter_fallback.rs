//! When the first adapter fails, the next one is taken (`adapter_choice::first_working`):
//! forced here by refusing the first choice, as Wine's DX12 adapter or a broken driver fails on
//! a user's machine. This machine has Mesa's lavapipe (Vulkan) and llvmpipe (OpenGL through
//! EGL); its own test binary, since it starts wgpu's OpenGL backend.

use studio_render::adapter_choice::{backend_groups, describe, first_working};
use studio_render::device_descriptor;

#[test]
fn a_failing_first_adapter_gives_way_to_the_next() {
    let groups = backend_groups();
    let preference = wgpu::PowerPreference::HighPerformance;
    let Ok((first, tried)) = first_working(&groups, preference, &device_descriptor, &mut |_, _| None) else {
        assert!(std::env::var_os("CI").is_none(), "no adapter in CI");
        eprintln!("note: no adapter; skipping");
        return;
    };
    // Passed over by themselves: none here; under Wine, its DX12 adapter ("Parent device is
    // lost"), as the Windows issue found.
    let natural = tried;
    eprintln!("passed over by themselves: {natural:?}");
    let first = describe(&first.adapter.get_info());

    // The one chosen comes after those that failed by themselves: refuse it.
    let place_of_first = natural.len();
    let mut refused = Vec::new();
    let mut refuse = |place: usize, info: &wgpu::AdapterInfo| {
        refused.push(describe(info));
        (place == place_of_first).then(|| "refused by the test".to_owned())
    };
    match first_working(&groups, preference, &device_descriptor, &mut refuse) {
        Ok((next, tried)) => {
            let next = describe(&next.adapter.get_info());
            eprintln!("first {first}, then {next}");
            assert_ne!(next, first, "another adapter is taken");
            let mut expected = natural.clone();
            expected.push(format!("{first}: refused by the test"));
            assert_eq!(tried, expected);
            assert_eq!(refused[place_of_first..], [first, next], "the refused one was the one chosen before");
        }
        Err(error) => {
            // A machine with one adapter: the error names it and why.
            assert!(std::env::var_os("CI").is_none(), "CI has Vulkan and OpenGL adapters: {error}");
            assert!(error.to_string().contains(&format!("{first}: refused by the test")), "{error}");
        }
    }
}

#[test]
fn when_every_adapter_fails_the_error_names_each() {
    let groups = backend_groups();
    let mut refuse = |place: usize, _: &wgpu::AdapterInfo| Some(format!("refused {place}"));
    let error = first_working(&groups, wgpu::PowerPreference::default(), &device_descriptor, &mut refuse)
        .expect_err("nothing works");
    let text = error.to_string();
    assert!(text.starts_with("no graphics adapter works ("), "{text}");
    if std::env::var_os("CI").is_some() {
        assert!(text.contains("refused 0") && text.contains("refused 1"), "{text}");
    }
}
