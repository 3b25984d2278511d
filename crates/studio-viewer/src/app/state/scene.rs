//! What the viewport draws of the state: the shown model and its pose as the renderer takes
//! them, the labels' points, the box to frame, the face, and the display options.

use glam::Vec3;

use super::AppState;
use crate::app::settings::Weights;

impl AppState {
    /// Names which model the viewport shows, and which lookup of its materials: changes when
    /// another is opened or its materials are looked up again.
    pub fn scene_identity(&self) -> (usize, u64) {
        match &self.source {
            Some(view) => (self.load_id as usize, view.generation + self.scene_generation),
            None => (self.load_id as usize, self.scene_generation),
        }
    }

    /// Shows the model in a player's colours (`None`: its textures as stored); the viewport
    /// uploads it again.
    pub fn set_player_colours(&mut self, colours: Option<studio_render::goldsrc::PlayerColours>) {
        if self.player_colours != colours {
            self.player_colours = colours;
            self.scene_generation += 1;
        }
    }

    /// The shown model as the renderer takes it (built when the viewport uploads it).
    pub fn render_model(&self) -> studio_render::RenderModel {
        match &self.source {
            Some(view) => studio_render::source::render_model(&view.doc.model, view.materials.clone()),
            None => studio_render::goldsrc::coloured_render_model(&self.loaded.model, self.player_colours),
        }
    }

    /// The current pose as the renderer takes it.
    pub fn frame_pose(&self) -> studio_render::FramePose<'_> {
        match &self.source {
            Some(view) => view.doc.frame.frame_pose(),
            None => studio_render::goldsrc::frame_pose(&self.loaded.model, &self.pose, Some(self.sequence)),
        }
    }

    /// Bone names and the bones' model-space transforms of the current pose.
    pub fn bone_names(&self) -> Vec<(&str, glam::Vec3)> {
        match &self.source {
            Some(view) => view
                .doc
                .model
                .bones
                .iter()
                .zip(&view.doc.frame.bones)
                .map(|(b, m)| (b.name.as_str(), m.translation.into()))
                .collect(),
            None => self
                .loaded
                .model
                .bones
                .iter()
                .zip(&self.pose.bones)
                .map(|(b, m)| (b.name.as_str(), m.translation.into()))
                .collect(),
        }
    }

    /// Attachment labels (Source: names; Half-Life: numbers) and points of the current pose.
    pub fn attachment_labels(&self) -> Vec<(String, glam::Vec3)> {
        match &self.source {
            Some(view) => view
                .doc
                .model
                .attachments
                .iter()
                .zip(&view.doc.frame.attachments)
                .map(|(a, &p)| (a.name.clone(), p.into()))
                .collect(),
            None => {
                self.pose.attachments.iter().enumerate().map(|(i, &p)| (i.to_string(), p.into())).collect()
            }
        }
    }

    /// The box round the current pose's bones, hit boxes and shown vertices, and round the
    /// compared model beside it.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let own = match &self.source {
            Some(view) => view.doc.bounds(self.body),
            None => studio_document::bounds::pose_bounds(self.model(), &self.pose, 0),
        };
        match &self.extras.second {
            Some(second)
                if matches!(second.placement, studio_document::second_model::Placement::Beside(_)) =>
            {
                let (min, max) = second.bounds();
                (own.0.min(min), own.1.max(max))
            }
            _ => own,
        }
    }

    /// Poses the open Source model's flexed meshes and eyes (looking at the camera unless told
    /// otherwise) for the pose evaluated last; returns their revision, which moves when they do.
    pub fn update_face(&mut self) -> u64 {
        let (body, eye) = (self.body, self.camera.eye());
        match self.source.as_deref_mut() {
            Some(view) => {
                view.doc.update_face(body, eye);
                view.doc.frame.face.revision
            }
            None => 0,
        }
    }

    /// How the viewport draws the current state.
    pub fn render_options(&self) -> studio_render::RenderOptions {
        let s = &self.settings;
        let mut options = studio_render::RenderOptions {
            mesh: s.mesh,
            lighting: true,
            flat: s.flat,
            wireframe: s.wireframe,
            double_sided: s.double_sided,
            opacity: 1.0,
            body: self.body,
            lod: self.lod,
            skin: if s.textures { self.skin } else { usize::MAX },
            xray: s.xray,
            background: s.background,
            game_shading: s.game_shading,
            light: s.light(),
            ..Default::default()
        };
        let overlay = &mut options.overlay;
        overlay.skeleton = s.skeleton;
        overlay.hitboxes = s.hitboxes;
        overlay.attachments = s.attachments;
        overlay.grid = s.ground && self.camera.shows_ground();
        overlay.bounding_box = s.bounding_box;
        overlay.sequence_box = s.sequence_box;
        overlay.selected_bone = self.selected_bone;
        overlay.selected_hitbox = self.selected_hitbox;
        overlay.normals = s.normals;
        overlay.player_hull = s.player_hull;
        overlay.weights = match s.weights {
            Weights::Off => studio_render::WeightView::Off,
            Weights::PerBone => studio_render::WeightView::PerBone,
            Weights::UnderCursor => match self.hovered_bone.or(self.selected_bone) {
                Some(bone) => studio_render::WeightView::Bone(bone),
                None => studio_render::WeightView::PerBone,
            },
        };
        options.ground_offset = self.ground_offset();
        options
    }

    /// How far the ground has scrolled under a model walking in place: the sequence's movement
    /// so far, negated, while "Scroll the ground" is on and the model is not moved along it
    /// instead (Half-Life: its linear movement and the loops played; Source: its animations'
    /// movement pieces and loops).
    fn ground_offset(&self) -> Vec3 {
        let s = &self.settings;
        if !s.scroll_ground {
            return Vec3::ZERO;
        }
        // Source models are never moved along the ground (the setting is Half-Life's).
        if let Some(view) = self.source.as_deref() {
            return -view.doc.movement();
        }
        if s.apply_movement {
            return Vec3::ZERO;
        }
        self.travelled().map_or(Vec3::ZERO, |travelled| -travelled)
    }
}
