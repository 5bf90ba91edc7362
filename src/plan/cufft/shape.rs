//! What a cuFFT plan transforms: transform types, row-major sizes and cuFFT's advanced layout
//! (`inembed`/`onembed`), as plan-layer settings.

use crate::error::{fail, ErrorKind, Result};
use crate::plan::outofcore::{self, DeviceBudget};
use crate::plan::{Layout, Settings};
use crate::planner;
use crate::planner::tuning::{Target, Tuning};
use crate::runtime::devmem::default_stream;
use crate::runtime::{device_info, Context, DeviceInfo};
use crate::types::{Precision, TransformKind};

/// cuFFT's transform types, with cuFFT's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftType {
    R2C = 0x2a,
    C2R = 0x2c,
    C2C = 0x29,
    D2Z = 0x6a,
    Z2D = 0x6c,
    Z2Z = 0x69,
}

impl FftType {
    pub fn from_raw(value: i32) -> Option<FftType> {
        Some(match value {
            0x2a => FftType::R2C,
            0x2c => FftType::C2R,
            0x29 => FftType::C2C,
            0x6a => FftType::D2Z,
            0x6c => FftType::Z2D,
            0x69 => FftType::Z2Z,
            _ => return None,
        })
    }

    pub fn precision(self) -> Precision {
        match self {
            FftType::R2C | FftType::C2R | FftType::C2C => Precision::Single,
            FftType::D2Z | FftType::Z2D | FftType::Z2Z => Precision::Double,
        }
    }

    pub fn kind(self) -> TransformKind {
        match self {
            FftType::R2C | FftType::D2Z => TransformKind::R2C,
            FftType::C2R | FftType::Z2D => TransformKind::C2R,
            FftType::C2C | FftType::Z2Z => TransformKind::C2C,
        }
    }

    /// Bytes of one input and one output element.
    fn units(self) -> (usize, usize) {
        let (real, complex) = (self.precision().real_bytes(), self.precision().complex_bytes());
        match self.kind() {
            TransformKind::C2C => (complex, complex),
            TransformKind::R2C => (real, complex),
            TransformKind::C2R => (complex, real),
        }
    }
}

/// One side of cuFFT's advanced layout: storage sizes (row-major; the first is never used), the stride
/// between elements, and the distance between batch entries, in elements of that side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    pub dims: Vec<usize>,
    pub stride: usize,
    pub dist: usize,
}

impl Embed {
    fn packed(dims: Vec<usize>) -> Embed {
        let dist = dims.iter().product();
        Embed { dims, stride: 1, dist }
    }

    /// Strides per axis, fastest first, as plan settings take them: cuFFT places element (x0, .., xr-1) of
    /// batch entry b at b * dist + stride * ((x0 * dims[1] + x1) * dims[2] + ..). A stride past the address
    /// space saturates, so that `extent` overflows and `validate` refuses it, unless its axis has one element.
    fn strides(&self) -> Vec<usize> {
        let mut strides = Vec::with_capacity(self.dims.len());
        let mut s = self.stride;
        for &d in self.dims.iter().rev() {
            strides.push(s);
            s = s.saturating_mul(d);
        }
        strides
    }
}

/// What a cuFFT plan transforms: sizes (row-major, last fastest), type, batch and layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub n: Vec<usize>,
    pub fft_type: FftType,
    pub batch: usize,
    /// `inembed`/`onembed` with their strides and distances; `None` is cuFFT's basic (packed) layout.
    pub advanced: Option<(Embed, Embed)>,
    /// The planner's overrides: the plan's (`fftxSetTuning`) once it is made.
    pub tuning: Tuning,
}

impl Shape {
    /// Rank 1 to 3, sizes and batch of at least 1, an advanced layout that holds the data, no overflow.
    pub fn validate(&self) -> Result<()> {
        let rank = self.n.len();
        if !(1..=3).contains(&rank) {
            return fail(ErrorKind::InvalidSize, format!("rank {rank} is not 1, 2 or 3"));
        }
        if self.n.contains(&0) || self.batch == 0 {
            return fail(ErrorKind::InvalidSize, "a size or the batch is zero");
        }
        let total = self.n.iter().chain([&self.batch]).try_fold(1usize, |a, &b| a.checked_mul(b));
        if total.and_then(|t| t.checked_mul(16)).is_none() {
            return fail(ErrorKind::InvalidSize, "the sizes and batch overflow the address space");
        }
        if let Some((input, output)) = &self.advanced {
            let (in_logical, out_logical) = self.logical();
            for (embed, logical, side) in [(input, &in_logical, "inembed"), (output, &out_logical, "onembed")] {
                if embed.dims.len() != rank {
                    return fail(ErrorKind::Bugcheck, format!("{side} has {} sizes for rank {rank}", embed.dims.len()));
                }
                if embed.stride == 0 || (self.batch > 1 && embed.dist == 0) {
                    return fail(ErrorKind::InvalidArgValue, format!("a stride or distance of {side} is zero"));
                }
                if let Some(i) = (1..rank).find(|&i| embed.dims[i] < logical[i]) {
                    return fail(
                        ErrorKind::InvalidArgValue,
                        format!(
                            "{side}[{i}] = {} is smaller than the {} values it must hold",
                            embed.dims[i], logical[i]
                        ),
                    );
                }
                let extent = self.extent(embed, logical);
                if extent.is_none() {
                    return fail(ErrorKind::InvalidSize, format!("the {side} layout overflows the address space"));
                }
            }
            let (strides, lengths): (Vec<usize>, Vec<usize>) =
                (output.strides(), out_logical.iter().rev().copied().collect());
            if !crate::plan::disjoint(&lengths, &strides, output.dist, self.batch) {
                return fail(
                    ErrorKind::InvalidArgValue,
                    format!(
                        "onembed {:?}, ostride {} and odist {} place two results at one position",
                        output.dims, output.stride, output.dist
                    ),
                );
            }
        }
        Ok(())
    }

    /// The sizes of the input and output data: a complex side of a real transform keeps n / 2 + 1 values
    /// along the last dimension.
    fn logical(&self) -> (Vec<usize>, Vec<usize>) {
        let real = self.n.clone();
        let mut complex = self.n.clone();
        if let Some(last) = complex.last_mut() {
            if self.fft_type.kind().is_real() {
                *last = *last / 2 + 1;
            }
        }
        match self.fft_type.kind() {
            TransformKind::C2C => (real.clone(), real),
            TransformKind::R2C => (real, complex),
            TransformKind::C2R => (complex, real),
        }
    }

    /// The input and output layouts for a transform in place or not. cuFFT's basic layout packs both
    /// sides, except that in place the real rows are padded to the 2 (n / 2 + 1) values of the complex rows
    /// they share storage with.
    fn embeds(&self, in_place: bool) -> (Embed, Embed) {
        if let Some((input, output)) = &self.advanced {
            return (input.clone(), output.clone());
        }
        let (input, output) = self.logical();
        let pad = |mut dims: Vec<usize>| {
            if in_place {
                if let Some(last) = dims.last_mut() {
                    *last = 2 * (self.n[self.n.len() - 1] / 2 + 1);
                }
            }
            Embed::packed(dims)
        };
        match self.fft_type.kind() {
            TransformKind::C2C => (Embed::packed(input), Embed::packed(output)),
            TransformKind::R2C => (pad(input), Embed::packed(output)),
            TransformKind::C2R => (Embed::packed(input), pad(output)),
        }
    }

    /// Elements from the first to one past the last that `embed` reaches over `logical` sizes.
    fn extent(&self, embed: &Embed, logical: &[usize]) -> Option<usize> {
        let strides = embed.strides();
        let mut last = (self.batch - 1).checked_mul(embed.dist)?;
        for (l, s) in logical.iter().rev().zip(&strides) {
            last = last.checked_add((l - 1).checked_mul(*s)?)?;
        }
        last.checked_add(1)
    }

    /// Bytes the input and the output reach.
    pub fn extents(&self, in_place: bool) -> (usize, usize) {
        let (input, output) = self.embeds(in_place);
        let (in_logical, out_logical) = self.logical();
        let (in_unit, out_unit) = self.fft_type.units();
        let reach = |e: &Embed, l: &[usize], unit: usize| self.extent(e, l).unwrap_or(usize::MAX).saturating_mul(unit);
        (reach(&input, &in_logical, in_unit), reach(&output, &out_logical, out_unit))
    }

    /// The device buffers a host execution stages its data in: one in place, input and output otherwise.
    pub(super) fn staging_sizes(&self, in_place: bool) -> Vec<usize> {
        let (in_bytes, out_bytes) = self.extents(in_place);
        if in_place {
            vec![in_bytes.max(out_bytes)]
        } else {
            vec![in_bytes, out_bytes]
        }
    }

    /// True when the output layout leaves gaps between the values a transform writes.
    pub(super) fn output_has_gaps(&self, in_place: bool) -> bool {
        let (_, output) = self.embeds(in_place);
        let (_, logical) = self.logical();
        self.extent(&output, &logical) != Some(logical.iter().product::<usize>() * self.batch)
    }

    /// The plan settings (clFFT semantics: fastest axis first, explicit layouts, scales) of this shape.
    pub fn settings(&self, context: Context, in_place: bool) -> Settings {
        let lengths: Vec<usize> = self.n.iter().rev().copied().collect();
        let (input, output) = self.embeds(in_place);
        let mut settings = Settings::new(context, &lengths);
        settings.in_strides = input.strides();
        settings.out_strides = output.strides();
        settings.in_dist = input.dist;
        settings.out_dist = output.dist;
        (settings.in_layout, settings.out_layout) = match self.fft_type.kind() {
            TransformKind::C2C => (Layout::ComplexInterleaved, Layout::ComplexInterleaved),
            TransformKind::R2C => (Layout::Real, Layout::HermitianInterleaved),
            TransformKind::C2R => (Layout::HermitianInterleaved, Layout::Real),
        };
        settings.precision = self.fft_type.precision();
        settings.in_place = in_place;
        settings.batch = self.batch;
        // cuFFT's transforms are unnormalised both ways.
        settings.forward_scale = 1.0;
        settings.backward_scale = 1.0;
        settings.tuning = self.tuning;
        settings
    }

    /// Whether host data of this shape can be lent to `device` whole: each array within its largest buffer.
    pub(super) fn lies_within(&self, device: &DeviceInfo, in_place: bool) -> bool {
        let (input, output) = self.extents(in_place);
        input.max(output) as u64 <= device.max_alloc_bytes
    }

    /// A transform in the basic layout that the out-of-core path streams through `device`.
    pub(super) fn streams(&self, device: &DeviceInfo) -> bool {
        let (kind, precision) = (self.fft_type.kind(), self.fft_type.precision());
        self.advanced.is_none() && outofcore::streams(&self.n, kind, precision, DeviceBudget::for_slabs(device))
    }

    /// The basic layout, and one transform's data fits `device`: a batch too large for it runs in parts.
    pub(super) fn one_transform_fits(&self, device: &DeviceInfo) -> bool {
        let one = Shape { batch: 1, ..self.clone() };
        self.advanced.is_none() && one.fits(device, false, 0) && one.fits(device, true, 0)
    }

    /// The data of an execution, in place or not, and `tmp_bytes` of scratch fit `device`.
    pub(super) fn fits(&self, device: &DeviceInfo, in_place: bool, tmp_bytes: usize) -> bool {
        let buffers = self.staging_sizes(in_place);
        buffers.iter().all(|&b| b as u64 <= device.max_alloc_bytes)
            && buffers.iter().sum::<usize>().saturating_add(tmp_bytes) as u64 <= device.global_mem_bytes
    }

    /// Scratch bytes a device execution needs on `device`, in place or not (0 where that way is impossible).
    pub(super) fn work_bytes(&self, context: &Context, device: &DeviceInfo) -> usize {
        [false, true]
            .into_iter()
            .filter_map(|in_place| {
                let problem = self.settings(context.clone(), in_place).problem().ok()?;
                let exec = planner::plan(&problem, &Target::new(device, self.tuning)).ok()?;
                Some(exec.tmp_elements() * problem.precision.complex_bytes())
            })
            .max()
            .unwrap_or(0)
    }
}

/// Scratch bytes `shape` would need on the default device, without making a plan (cuFFT's estimates).
pub fn estimate_work_bytes(shape: &Shape) -> Result<usize> {
    shape.validate()?;
    let stream = default_stream()?;
    let device = device_info(stream.queue.device()?)?;
    Ok(shape.work_bytes(&stream.context, &device))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    fn shape(n: &[usize], fft_type: FftType, batch: usize) -> Shape {
        Shape { n: n.to_vec(), fft_type, batch, advanced: None, tuning: Tuning::default() }
    }

    #[test]
    fn advanced_layout_follows_cufft_formula() {
        // Element (x, y) of batch b at b * idist + istride * (x * inembed[1] + y).
        let embed = Embed { dims: vec![99, 10], stride: 3, dist: 1000 };
        assert_eq!(embed.strides(), vec![3, 30]);
        let embed = Embed { dims: vec![0, 6, 5], stride: 2, dist: 0 };
        assert_eq!(embed.strides(), vec![2, 10, 60]);
    }

    #[test]
    fn basic_layouts_pack_and_pad_real_rows_in_place() {
        let s = shape(&[4, 6], FftType::R2C, 2);
        assert_eq!(s.embeds(false), (Embed::packed(vec![4, 6]), Embed::packed(vec![4, 4])));
        assert_eq!(s.embeds(true), (Embed::packed(vec![4, 8]), Embed::packed(vec![4, 4])));
        assert_eq!(s.extents(false), (4 * 6 * 2 * 4, 4 * 4 * 2 * 8));
        let s = shape(&[5], FftType::Z2D, 1);
        assert_eq!(s.embeds(true), (Embed::packed(vec![3]), Embed::packed(vec![6])));
        assert_eq!(s.extents(true), (3 * 16, 5 * 8));
    }

    #[test]
    fn settings_reverse_sizes_and_leave_inverses_unscaled() {
        let s = shape(&[3, 4, 5], FftType::Z2Z, 7);
        let settings = s.settings(default_stream().unwrap().context.clone(), false);
        assert_eq!(settings.lengths, vec![5, 4, 3]);
        assert_eq!(settings.in_strides, vec![1, 5, 20]);
        assert_eq!(settings.in_dist, 60);
        assert_eq!(settings.precision, Precision::Double);
        assert_eq!(settings.backward_scale, 1.0);
    }

    #[test]
    fn validation_rejects_bad_shapes() {
        assert_eq!(shape(&[], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[4, 0], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[4], FftType::C2C, 0).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[usize::MAX / 2, 4], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        let mut s = shape(&[4, 8], FftType::R2C, 1);
        s.advanced =
            Some((Embed { dims: vec![4, 8], stride: 1, dist: 32 }, Embed { dims: vec![4, 4], stride: 1, dist: 16 }));
        assert_eq!(s.validate().unwrap_err().kind, ErrorKind::InvalidArgValue);
    }
}
