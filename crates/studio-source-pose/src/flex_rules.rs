//! Flex controller values → flex description weights: the engine's flex rule interpreter
//! (`CStudioHdr::RunFlexRules`, the "old" interpreter it builds with; `docs/flex.md`, "Rules").
//!
//! Each rule runs on a zeroed stack of 32 values and sets its description's weight to the
//! value at the bottom of the stack. The reader has checked every rule's stack depth, so the
//! only checks left are those of the controller numbers the `NWAY` and eyelid operations take
//! from the stack; one that names no controller reads as 0 (the engine reads past its table).

use studio_source::{FLEX_STACK, FlexController, FlexOp, Flexes};

/// `RemapValClamped(value, a, b, c, d)`: `value` mapped from `a..b` to `c..d`, clamped to it.
pub fn remap_clamped(value: f32, a: f32, b: f32, c: f32, d: f32) -> f32 {
    if a == b {
        return if value >= b { d } else { c };
    }
    let t = ((value - a) / (b - a)).clamp(0.0, 1.0);
    c + (d - c) * t
}

/// The controller a stack value names (truncated towards zero, as `(int)` does).
fn named(controllers: &[FlexController], value: f32) -> Option<usize> {
    let index = value as i64;
    usize::try_from(index).ok().filter(|&i| i < controllers.len())
}

/// The value of controller `index` (0 where there is none).
fn value_of(src: &[f32], index: usize) -> f32 {
    src.get(index).copied().unwrap_or(0.0)
}

/// The value of the controller a stack value names, remapped from its range to `c..d`; 0 where
/// the stack value names none.
fn named_remapped(flexes: &Flexes, src: &[f32], value: f32, (c, d): (f32, f32)) -> f32 {
    named(&flexes.controllers, value).map_or(0.0, |i| {
        let controller = &flexes.controllers[i];
        remap_clamped(value_of(src, i), controller.min, controller.max, c, d)
    })
}

/// Controller `index`'s value remapped from its range to 0..1.
fn own_remapped(flexes: &Flexes, src: &[f32], index: usize) -> f32 {
    flexes.controllers.get(index).map_or(0.0, |c| remap_clamped(value_of(src, index), c.min, c.max, 0.0, 1.0))
}

/// The eyelid operations: close-lid, blink and eye-up-down from the stack, close-lid-V from the
/// operand. Returns the value and leaves it where the engine does (`stack[k-3]`).
fn eyelid(flexes: &Flexes, src: &[f32], stack: &[f32; FLEX_STACK], k: usize, v: usize, upper: bool) -> f32 {
    let close_lid_v = own_remapped(flexes, src, v);
    let close_lid = named_remapped(flexes, src, stack[k - 1], (0.0, 1.0));
    // The blink controller (stack[k-2]) is read by the engine and not used.
    // A negative number names no controller and reads as 0, as the engine's `>= 0` test gives.
    let up_down = named_remapped(flexes, src, stack[k - 3], (-1.0, 1.0));
    if upper {
        if up_down < 0.0 { (1.0 + up_down) * close_lid_v * close_lid } else { close_lid_v * close_lid }
    } else if up_down > 0.0 {
        (1.0 - up_down) * (1.0 - close_lid_v) * close_lid
    } else {
        (1.0 - close_lid_v) * close_lid
    }
}

/// Runs every rule of `flexes` on the controller values `src` (one per controller, in its own
/// range) and writes each flex description's weight to `dest` (one per description; those no
/// rule sets are 0). Allocates nothing.
pub fn run_flex_rules(flexes: &Flexes, src: &[f32], dest: &mut [f32]) {
    dest.fill(0.0);
    'rules: for rule in &flexes.rules {
        let mut stack = [0.0f32; FLEX_STACK];
        let mut k = 0usize;
        for op in &rule.ops {
            // The depth the operation leaves. The reader has checked it for every rule it
            // returns; a rule built otherwise that would leave its stack is passed over whole
            // (nothing but its own stack has been touched).
            let Some(next) = op.depth_after(k) else { continue 'rules };
            match *op {
                FlexOp::Add => stack[k - 2] += stack[k - 1],
                FlexOp::Sub => stack[k - 2] -= stack[k - 1],
                FlexOp::Mul => stack[k - 2] *= stack[k - 1],
                FlexOp::Div => {
                    stack[k - 2] = if stack[k - 1] > 0.0001 { stack[k - 2] / stack[k - 1] } else { 0.0 };
                }
                FlexOp::Neg => stack[k - 1] = -stack[k - 1],
                // MAX(a, b) is `a > b ? a : b`, MIN(a, b) `a < b ? a : b`.
                FlexOp::Max => {
                    stack[k - 2] = if stack[k - 2] > stack[k - 1] { stack[k - 2] } else { stack[k - 1] };
                }
                FlexOp::Min => {
                    stack[k - 2] = if stack[k - 2] < stack[k - 1] { stack[k - 2] } else { stack[k - 1] };
                }
                FlexOp::Const(value) => stack[k] = value,
                FlexOp::Fetch1(c) => stack[k] = value_of(src, c),
                FlexOp::Fetch2(d) => stack[k] = dest.get(d).copied().unwrap_or(0.0),
                FlexOp::Combo(m) => {
                    let km = k - m;
                    for i in km + 1..k {
                        stack[km] *= stack[i];
                    }
                }
                FlexOp::Dominate(m) => {
                    let km = k - m;
                    let mut dv = stack[km];
                    for value in &stack[km + 1..k] {
                        dv *= value;
                    }
                    stack[km - 1] *= 1.0 - dv;
                }
                FlexOp::TwoWay0(c) => stack[k] = remap_clamped(value_of(src, c), -1.0, 0.0, 1.0, 0.0),
                FlexOp::TwoWay1(c) => stack[k] = remap_clamped(value_of(src, c), 0.0, 1.0, 0.0, 1.0),
                FlexOp::NWay(v) => {
                    let value = named(&flexes.controllers, stack[k - 1]).map_or(0.0, |i| value_of(src, i));
                    let [x, y, z, w] = [stack[k - 5], stack[k - 4], stack[k - 3], stack[k - 2]];
                    let filtered = if value <= x || value >= w {
                        0.0
                    } else if value < y {
                        remap_clamped(value, x, y, 0.0, 1.0)
                    } else if value > z {
                        remap_clamped(value, z, w, 1.0, 0.0)
                    } else {
                        1.0
                    };
                    stack[k - 5] = filtered * value_of(src, v);
                }
                FlexOp::LowerEyelid(v) | FlexOp::UpperEyelid(v) => {
                    let upper = matches!(op, FlexOp::UpperEyelid(_));
                    stack[k - 3] = eyelid(flexes, src, &stack, k, v, upper);
                }
                FlexOp::Ignored(_) => {}
            }
            k = next;
        }
        if let Some(weight) = dest.get_mut(rule.flex) {
            *weight = stack[0];
        }
    }
}
