//! The model's face: flex descriptions, flex controllers (with their UI groupings), flex rules
//! and mouths (source-header.md, "Header" at 260–300 and 384; `docs/flex.md` gives the
//! records, the rule operations and how the engine runs them).
//!
//! Every rule is checked when read, so that running it can never leave its 32-value stack:
//! each operation's stack effect is fixed by its code and operand, so the depth before every
//! operation is known at load. References to controllers and descriptions are checked too; the
//! only indices known only when a rule runs (the `NWAY` and eyelid operations take controller
//! numbers from the stack) are checked then.

use glam::Vec3;

use crate::error::{Problem, Record, Result, Warning};
use crate::raw::{
    RawFlexController, RawFlexControllerUi, RawFlexDesc, RawFlexOp, RawFlexRule, RawHeader, RawMouth,
};
use crate::reader::{FileData, required};

/// The most values a rule's stack holds (`float stack[32]` in `RunFlexRules`).
pub const FLEX_STACK: usize = 32;

/// One flex controller (`mstudioflexcontroller_t`): a slider the face is driven by.
#[derive(Clone, Debug, PartialEq)]
pub struct FlexController {
    /// Its name (`right_lid_raiser`…).
    pub name: String,
    /// Its type: the group `$flexcontroller` gave it (`eyes`, `phoneme`…).
    pub kind: String,
    /// The value at the slider's low end.
    pub min: f32,
    /// The value at its high end.
    pub max: f32,
}

impl FlexController {
    /// Its range, low end first (a controller may be written with `min` above `max`).
    pub fn range(&self) -> (f32, f32) {
        (self.min.min(self.max), self.min.max(self.max))
    }
}

/// How a UI control maps onto its controllers (`FlexControllerRemapType_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemapType {
    /// The controller as it is.
    PassThrough,
    /// One slider over two controllers, −1 to 0 and 0 to 1.
    TwoWay,
    /// One slider over several, chosen by a value controller.
    NWay,
    /// The eyelid remapping.
    Eyelid,
    /// A code studiomdl does not write.
    Other(u8),
}

/// One UI control (`mstudioflexcontrollerui_t`): how the model groups its controllers into
/// sliders, a left/right pair into one stereo control.
#[derive(Clone, Debug, PartialEq)]
pub struct FlexControllerUi {
    /// The control's name.
    pub name: String,
    /// Its controllers: the control (or left), the right one for a stereo control, the value
    /// controller for an n-way one.
    pub controllers: [Option<usize>; 3],
    /// How its slider maps onto them.
    pub remap: RemapType,
    /// Whether it is a left/right pair.
    pub stereo: bool,
}

/// One operation of a flex rule (`mstudioflexop_t`, `STUDIO_*` codes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FlexOp {
    /// 1: push the constant.
    Const(f32),
    /// 2: push the controller's value.
    Fetch1(usize),
    /// 3: push the weight of the flex description (one an earlier rule set).
    Fetch2(usize),
    /// 4
    Add,
    /// 5
    Sub,
    /// 6
    Mul,
    /// 7: division, 0 where the divisor is not above 0.0001.
    Div,
    /// 8
    Neg,
    /// 13
    Max,
    /// 14
    Min,
    /// 15: push the controller remapped from −1..0 to 1..0, clamped.
    TwoWay0(usize),
    /// 16: push the controller clamped to 0..1.
    TwoWay1(usize),
    /// 17: the n-way filter, over the controller and the 5 values on top of the stack.
    NWay(usize),
    /// 18: the product of the top `n` values.
    Combo(usize),
    /// 19: the value under the top `n` times one minus their product.
    Dominate(usize),
    /// 20: the lower eyelid, with the close-lid-V controller.
    LowerEyelid(usize),
    /// 21: the upper eyelid.
    UpperEyelid(usize),
    /// A code the engine's interpreter passes over (9 `EXP`, 10–12 the parser's brackets and
    /// comma, or one it does not know).
    Ignored(i32),
}

/// One flex rule (`mstudioflexrule_t`): the program that gives a flex description's weight.
#[derive(Clone, Debug, PartialEq)]
pub struct FlexRule {
    /// The flex description it sets.
    pub flex: usize,
    /// Its operations, checked to keep the stack within bounds.
    pub ops: Vec<FlexOp>,
}

/// One mouth (`mstudiomouth_t`): the bone and direction the mouth's lighting follows.
#[derive(Clone, Debug, PartialEq)]
pub struct Mouth {
    /// Its bone.
    pub bone: usize,
    /// Forward, in the bone's space.
    pub forward: Vec3,
    /// The flex description whose weight opens it.
    pub flex_desc: usize,
}

/// The header's face tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flexes {
    /// Flex descriptions (the FACS names the mesh flexes refer to).
    pub descs: Vec<String>,
    /// Flex controllers.
    pub controllers: Vec<FlexController>,
    /// UI controls grouping the controllers.
    pub ui: Vec<FlexControllerUi>,
    /// Flex rules, in the order they run.
    pub rules: Vec<FlexRule>,
    /// Mouths.
    pub mouths: Vec<Mouth>,
}

impl FlexOp {
    /// The stack depth this operation leaves when it runs on `depth` values; `None` when it
    /// would read below the stack or grow it past [`FLEX_STACK`].
    pub fn depth_after(&self, depth: usize) -> Option<usize> {
        stack_effect(self, depth).1
    }
}

impl FlexRule {
    /// Whether running the rule keeps its stack within 0 to 32 values and every operand count
    /// fits: true of every rule the reader returns.
    pub fn fits_stack(&self) -> bool {
        let mut depth = Some(0usize);
        for op in &self.ops {
            depth = depth.and_then(|k| op.depth_after(k));
        }
        depth.is_some()
    }
}

/// What operation `code` does to the stack: values it needs, then the depth it leaves from
/// depth `k` (`None` when `k` is too small or the result leaves the stack).
fn stack_effect(op: &FlexOp, k: usize) -> (usize, Option<usize>) {
    let pushes = |k: usize| (k < FLEX_STACK).then_some(k + 1);
    match *op {
        FlexOp::Const(_)
        | FlexOp::Fetch1(_)
        | FlexOp::Fetch2(_)
        | FlexOp::TwoWay0(_)
        | FlexOp::TwoWay1(_) => (0, pushes(k)),
        FlexOp::Add | FlexOp::Sub | FlexOp::Mul | FlexOp::Div | FlexOp::Max | FlexOp::Min => {
            (2, k.checked_sub(1).filter(|_| k >= 2))
        }
        FlexOp::Neg => (1, (k >= 1).then_some(k)),
        FlexOp::NWay(_) => (5, (k >= 5).then(|| k - 4)),
        FlexOp::LowerEyelid(_) | FlexOp::UpperEyelid(_) => (3, (k >= 3).then(|| k - 2)),
        // stack[k-m] = product of stack[k-m..k]; k = k - m + 1.
        FlexOp::Combo(m) => (m.max(1), (m >= 1 && k >= m).then(|| k - m + 1)),
        // stack[k-m-1] *= 1 - product of stack[k-m..k]; k -= m.
        FlexOp::Dominate(m) => (m.saturating_add(1).max(2), (m >= 1 && k > m).then(|| k - m)),
        FlexOp::Ignored(_) => (0, Some(k)),
    }
}

/// Reads one operation, checking the index it names.
fn op(file: &FileData<'_>, i: usize, at: u64, raw: &RawFlexOp, counts: (usize, usize)) -> Result<FlexOp> {
    let value = i32::from_le_bytes(raw.d);
    let place = (Record::FlexOp, Some(i), at + 4);
    let controller = || required(file, place, "d.index", value, "flex controller", counts.0);
    let desc = || required(file, place, "d.index", value, "flex description", counts.1);
    let count = || {
        usize::try_from(value).ok().filter(|&m| (1..=FLEX_STACK).contains(&m)).ok_or_else(|| {
            file.error(
                Record::FlexOp,
                Some(i),
                at + 4,
                Problem::OutOfRange {
                    field: "d.index",
                    value: value.into(),
                    needs: "a count of 1 to 32 values",
                },
            )
        })
    };
    Ok(match raw.op {
        1 => FlexOp::Const(f32::from_le_bytes(raw.d)),
        2 => FlexOp::Fetch1(controller()?),
        3 => FlexOp::Fetch2(desc()?),
        4 => FlexOp::Add,
        5 => FlexOp::Sub,
        6 => FlexOp::Mul,
        7 => FlexOp::Div,
        8 => FlexOp::Neg,
        13 => FlexOp::Max,
        14 => FlexOp::Min,
        15 => FlexOp::TwoWay0(controller()?),
        16 => FlexOp::TwoWay1(controller()?),
        17 => FlexOp::NWay(controller()?),
        18 => FlexOp::Combo(count()?),
        19 => FlexOp::Dominate(count()?),
        20 => FlexOp::LowerEyelid(controller()?),
        21 => FlexOp::UpperEyelid(controller()?),
        code => FlexOp::Ignored(code),
    })
}

/// The rules, each checked to keep its stack within 0 to 32 values.
fn rules(file: &FileData<'_>, raw: &RawHeader, counts: (usize, usize)) -> Result<Vec<FlexRule>> {
    let table = file.table::<RawFlexRule>(
        Record::FlexRule,
        None,
        0,
        "numflexrules",
        raw.numflexrules,
        "flexruleindex",
        raw.flexruleindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (r, rule_at, rule) in table.iter() {
        let flex = required(
            file,
            (Record::FlexRule, Some(r), rule_at),
            "flex",
            rule.flex,
            "flex description",
            counts.1,
        )?;
        let ops_table = file.table::<RawFlexOp>(
            Record::FlexRule,
            Some(r),
            rule_at,
            "numops",
            rule.numops,
            "opindex",
            rule.opindex,
        )?;
        let mut ops = Vec::with_capacity(ops_table.len());
        let mut depth = 0usize;
        for (i, op_at, raw_op) in ops_table.iter() {
            let op = op(file, i, op_at, &raw_op, counts)?;
            let (needs, after) = stack_effect(&op, depth);
            depth = after.ok_or_else(|| {
                file.error(
                    Record::FlexOp,
                    Some(i),
                    op_at,
                    Problem::FlexStack { op: i, code: raw_op.op, depth: depth as i64, needs: needs as i64 },
                )
            })?;
            ops.push(op);
        }
        out.push(FlexRule { flex, ops });
    }
    Ok(out)
}

/// The UI control's controller at `relative` from the record (0: none).
fn ui_controller(
    file: &FileData<'_>,
    (i, at): (usize, u64),
    relative: i32,
    raw: &RawHeader,
    count: usize,
) -> Result<Option<usize>> {
    if relative == 0 {
        return Ok(None);
    }
    let target = file.at(Record::FlexControllerUi, Some(i), at, "szindex", relative)?;
    let first = file.at(Record::Header, None, 0, "flexcontrollerindex", raw.flexcontrollerindex)?;
    let index = target
        .checked_sub(first)
        .filter(|d| d % 20 == 0)
        .and_then(|d| usize::try_from(d / 20).ok())
        .filter(|&c| c < count);
    index.map(Some).ok_or_else(|| {
        file.error(
            Record::FlexControllerUi,
            Some(i),
            at,
            Problem::OutOfRange {
                field: "szindex",
                value: relative.into(),
                needs: "it to lead to the start of one of the model's flex controllers",
            },
        )
    })
}

/// Reads the header's face tables.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    bones: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Flexes> {
    let descs = file
        .table::<RawFlexDesc>(
            Record::FlexDesc,
            None,
            0,
            "numflexdesc",
            raw.numflexdesc,
            "flexdescindex",
            raw.flexdescindex,
        )?
        .iter()
        .map(|(i, at, d)| {
            file.optional_name(Record::FlexDesc, Some(i), at, "szFACSindex", d.szfacsindex, warnings)
        })
        .collect::<Vec<_>>();
    let controllers = file
        .table::<RawFlexController>(
            Record::FlexController,
            None,
            0,
            "numflexcontrollers",
            raw.numflexcontrollers,
            "flexcontrollerindex",
            raw.flexcontrollerindex,
        )?
        .iter()
        .map(|(i, at, c)| FlexController {
            name: file.optional_name(
                Record::FlexController,
                Some(i),
                at,
                "sznameindex",
                c.sznameindex,
                warnings,
            ),
            kind: file.optional_name(
                Record::FlexController,
                Some(i),
                at,
                "sztypeindex",
                c.sztypeindex,
                warnings,
            ),
            min: c.min,
            max: c.max,
        })
        .collect::<Vec<_>>();
    let counts = (controllers.len(), descs.len());
    let ui_table = file.table::<RawFlexControllerUi>(
        Record::FlexControllerUi,
        None,
        0,
        "numflexcontrollerui",
        raw.numflexcontrollerui,
        "flexcontrolleruiindex",
        raw.flexcontrolleruiindex,
    )?;
    let mut ui = Vec::with_capacity(ui_table.len());
    for (i, at, u) in ui_table.iter() {
        let mut controllers_of = [None; 3];
        for (slot, &relative) in controllers_of.iter_mut().zip(&u.szindex) {
            *slot = ui_controller(file, (i, at), relative, raw, counts.0)?;
        }
        ui.push(FlexControllerUi {
            name: file.optional_name(
                Record::FlexControllerUi,
                Some(i),
                at,
                "sznameindex",
                u.sznameindex,
                warnings,
            ),
            controllers: controllers_of,
            remap: match u.remaptype {
                0 => RemapType::PassThrough,
                1 => RemapType::TwoWay,
                2 => RemapType::NWay,
                3 => RemapType::Eyelid,
                other => RemapType::Other(other),
            },
            stereo: u.stereo != 0,
        });
    }
    let rules = rules(file, raw, counts)?;
    let mouth_table = file.table::<RawMouth>(
        Record::Mouth,
        None,
        0,
        "nummouths",
        raw.nummouths,
        "mouthindex",
        raw.mouthindex,
    )?;
    let mut mouths = Vec::with_capacity(mouth_table.len());
    for (i, at, m) in mouth_table.iter() {
        mouths.push(Mouth {
            bone: required(file, (Record::Mouth, Some(i), at), "bone", m.bone, "bone", bones)?,
            forward: Vec3::from_array(m.forward),
            flex_desc: required(
                file,
                (Record::Mouth, Some(i), at + 16),
                "flexdesc",
                m.flexdesc,
                "flex description",
                counts.1,
            )?,
        });
    }
    Ok(Flexes { descs, controllers, ui, rules, mouths })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_effects_follow_the_interpreter() {
        assert_eq!(stack_effect(&FlexOp::Const(1.0), 0), (0, Some(1)));
        assert_eq!(stack_effect(&FlexOp::Const(1.0), 32), (0, None));
        assert_eq!(stack_effect(&FlexOp::Add, 1), (2, None));
        assert_eq!(stack_effect(&FlexOp::Add, 2), (2, Some(1)));
        assert_eq!(stack_effect(&FlexOp::NWay(0), 5), (5, Some(1)));
        assert_eq!(stack_effect(&FlexOp::NWay(0), 4).1, None);
        assert_eq!(stack_effect(&FlexOp::UpperEyelid(0), 3), (3, Some(1)));
        assert_eq!(stack_effect(&FlexOp::Combo(3), 3), (3, Some(1)));
        assert_eq!(stack_effect(&FlexOp::Combo(3), 2).1, None);
        // Dominate writes below the values it multiplies.
        assert_eq!(stack_effect(&FlexOp::Dominate(2), 3), (3, Some(1)));
        assert_eq!(stack_effect(&FlexOp::Dominate(2), 2).1, None);
        assert_eq!(stack_effect(&FlexOp::Ignored(9), 0), (0, Some(0)));
    }
}
