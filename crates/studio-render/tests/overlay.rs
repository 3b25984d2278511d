//! Building the overlays, the renderer's own per-frame CPU work, allocates nothing once room is
//! reserved for the model (the GPU-side writes go through wgpu's staging belt).

use std::sync::Arc;

use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_render::OverlayOptions;
use studio_render::overlay::Overlay;

#[test]
fn overlays_are_built_without_allocating() {
    let Some(shared) = studio_testing::shared() else { return };
    for path in ["models/ns/soldier.mdl", "fixtures/blends.mdl", "fixtures/groups.mdl"] {
        let model = Arc::new(studio_model::load(&shared.join(path)).unwrap().model);
        let mut pose = Pose::new(&model);
        PoseEvaluator::new(model.clone()).evaluate(&PoseRequest::default(), &mut pose).unwrap();
        let render = studio_render::goldsrc::render_model(&model);
        let frame = studio_render::goldsrc::frame_pose(&model, &pose, Some(0));
        let mut overlay = Overlay::for_model(&render);
        let options = OverlayOptions {
            skeleton: true,
            hitboxes: true,
            attachments: true,
            bounding_box: true,
            sequence_box: true,
            grid: true,
            selected_bone: Some(0),
            selected_hitbox: Some(0),
            player_hull: true,
            ..OverlayOptions::default()
        };
        let info = allocation_counter::measure(|| {
            for _ in 0..10 {
                overlay.build(
                    &render.parents,
                    render.bounds,
                    &render.hitbox_sets,
                    render.engine,
                    &frame,
                    &options,
                );
            }
        });
        assert_eq!(info.count_total, 0, "{path}: building overlays allocated");
        // Everything was drawn: 12 edges per hit box, a line and a cross per bone, and so on
        // (the grid is the mesh pipeline's, not an overlay's).
        let bones = model.bones.len();
        let parents = model.bones.iter().filter(|b| b.parent.is_some()).count();
        // Two boxes and two hulls of 12 edges each.
        let expected_lines =
            4 * 12 + model.hitboxes.len() * 12 + parents + bones * 3 + model.attachments.len() * 3;
        assert_eq!(overlay.lines.len(), 2 * expected_lines, "{path}");
        assert_eq!(overlay.triangles.len(), model.hitboxes.len() * 36, "{path}");
    }
}
