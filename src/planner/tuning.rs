//! Tuning: the planner's overrides of its own choices, a value each plan carries (`FFTX_TUNE` gives the
//! process default at the API edge), and the target a plan is made for: the device with that tuning.
//!
//! The overrides serve tests and measurements: `profile=gpu` exercises the GPU code path on a CPU,
//! `max_leaf=16` deep decompositions with small lengths, `chunk=B` chunked batches with small cases.

use crate::error::{fail, ErrorKind, Result};
use crate::runtime::{DeviceInfo, DeviceKind};
use std::fmt;
use std::ops::Deref;

/// Overrides of the planner's choices. The default overrides nothing.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tuning {
    /// Plan for this kind of device whatever the device is (`profile=cpu|gpu`).
    pub profile: Option<DeviceKind>,
    /// Caps the single-kernel length (`max_leaf=N`, N ≥ 2).
    pub max_leaf: Option<usize>,
    /// Runs every prime through Bluestein instead of Rader (`rader=off`).
    pub no_rader: bool,
    /// Gives GPU leaves up to this many transforms per slot in vector lanes, as many as local memory holds
    /// (`gpu_lanes=L`, a power of two up to 16), so that a work-item's loads and stores along columns are
    /// runs of adjacent elements. Off by default: it runs slower on an H100 (`docs/gpu.md`).
    pub gpu_lanes: Option<usize>,
    /// Keeps GPU loads and stores item-major along columns too (`gpu_io=items`; see `kernel_shape::leaf`).
    pub gpu_item_major_io: bool,
    /// Runs a CPU batch in chunks of at most this many bytes (`chunk=B`; 0: in one), even where their
    /// launches would leave the compute units unbalanced (`chunks::keeps_units_balanced`).
    pub chunk_bytes: Option<usize>,
    /// Gives four-step twiddles the exponent arithmetic of moduli above 2^32 (`wide_twiddle=on`), which no
    /// length a test can hold needs, so that the tests check it.
    pub wide_twiddle: bool,
}

impl Tuning {
    /// Parses a `;`-separated list of `key=value` items; fails naming the first item it does not know or
    /// whose value is out of range.
    pub fn parse(spec: &str) -> Result<Tuning> {
        let mut tuning = Tuning::default();
        for item in spec.split(';').map(str::trim).filter(|item| !item.is_empty()) {
            if !tuning.apply(item) {
                return fail(ErrorKind::InvalidArgValue, format!("tuning item `{item}` is not one fftx knows"));
            }
        }
        Ok(tuning)
    }

    /// Applies one `key=value` item; false when the item is unknown or its value out of range.
    fn apply(&mut self, item: &str) -> bool {
        let Some((key, value)) = item.split_once('=') else { return false };
        match (key.trim(), value.trim()) {
            ("profile", "gpu") => self.profile = Some(DeviceKind::Gpu),
            ("profile", "cpu") => self.profile = Some(DeviceKind::Cpu),
            ("max_leaf", n) => match n.parse() {
                Ok(n) if n >= 2 => self.max_leaf = Some(n),
                _ => return false,
            },
            ("rader", "off") => self.no_rader = true,
            ("gpu_lanes", n) => match n.parse::<usize>() {
                Ok(n) if n.is_power_of_two() && n <= 16 => self.gpu_lanes = Some(n),
                _ => return false,
            },
            ("gpu_io", "items") => self.gpu_item_major_io = true,
            ("chunk", n) => match n.parse() {
                Ok(n) => self.chunk_bytes = Some(n),
                _ => return false,
            },
            ("wide_twiddle", "on") => self.wide_twiddle = true,
            _ => return false,
        }
        true
    }
}

/// The canonical spelling, which `Tuning::parse` reads back.
impl fmt::Display for Tuning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        match self.profile {
            Some(DeviceKind::Cpu) => items.push("profile=cpu".to_string()),
            Some(DeviceKind::Gpu) => items.push("profile=gpu".to_string()),
            Some(DeviceKind::Other) | None => {}
        }
        items.extend(self.max_leaf.map(|n| format!("max_leaf={n}")));
        items.extend(self.no_rader.then(|| "rader=off".to_string()));
        items.extend(self.gpu_lanes.map(|n| format!("gpu_lanes={n}")));
        items.extend(self.gpu_item_major_io.then(|| "gpu_io=items".to_string()));
        items.extend(self.chunk_bytes.map(|n| format!("chunk={n}")));
        items.extend(self.wide_twiddle.then(|| "wide_twiddle=on".to_string()));
        f.write_str(&items.join(";"))
    }
}

/// The device a plan is made for, as the planner sees it: what the driver reports, with `profile` applied
/// to its kind, and the tuning beside it. It reads as the device (`Deref`) wherever only that matters.
#[derive(Debug, Clone)]
pub struct Target {
    device: DeviceInfo,
    pub tuning: Tuning,
}

impl Target {
    pub fn new(device: &DeviceInfo, tuning: Tuning) -> Target {
        let kind = tuning.profile.unwrap_or(device.kind);
        Target { device: DeviceInfo { kind, ..device.clone() }, tuning }
    }
}

impl Deref for Target {
    type Target = DeviceInfo;

    fn deref(&self) -> &DeviceInfo {
        &self.device
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_each_item_and_refuses_what_it_does_not_know() {
        assert_eq!(Tuning::parse("").unwrap(), Tuning::default());
        let all = Tuning::parse("profile=gpu; max_leaf=16;rader=off;gpu_lanes=4;gpu_io=items;chunk=0;wide_twiddle=on;")
            .unwrap();
        let expected = Tuning {
            profile: Some(DeviceKind::Gpu),
            max_leaf: Some(16),
            no_rader: true,
            gpu_lanes: Some(4),
            gpu_item_major_io: true,
            chunk_bytes: Some(0),
            wide_twiddle: true,
        };
        assert_eq!(all, expected);
        assert_eq!(Tuning::parse(&all.to_string()).unwrap(), all);
        assert_eq!(Tuning::parse("profile=cpu").unwrap().profile, Some(DeviceKind::Cpu));
        for bad in ["colour=blue", "max_leaf=1", "gpu_lanes=3", "gpu_lanes=32", "chunk=-1", "profile", "rader=on"] {
            let err = Tuning::parse(bad).unwrap_err();
            assert!(err.to_string().contains(bad), "{bad}: {err}");
        }
    }

    #[test]
    fn the_target_takes_the_profile_as_its_kind() {
        let cpu = crate::planner::test_device::cpu();
        let gpu = Tuning { profile: Some(DeviceKind::Gpu), ..Tuning::default() };
        assert_eq!(Target::new(&cpu, gpu).kind, DeviceKind::Gpu);
        assert_eq!(Target::new(&cpu, Tuning::default()).kind, DeviceKind::Cpu);
    }
}
