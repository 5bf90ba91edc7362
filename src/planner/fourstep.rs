//! Four-step (Bailey): a job of length n = rows * columns as two passes over global memory.
//!
//! With n = n1 + rows * n2 on input and k = k2 + columns * k1 on output:
//! 1. for each n1, an FFT of length `columns` over n2, times w_n^(n1 k2), written to scratch at the
//!    input position n1 + rows * k2 (the lanes run along n1, so reads and writes are contiguous);
//! 2. for each k2, an FFT of length `rows` over n1 of the scratch row, written to k2 + columns * k1.
//!
//! On CPUs an out-of-place job keeps the intermediate in its destination instead, transposed: pass 1 writes
//! element k2 of n1's FFT to k2 + columns * n1 (contiguous rows), and pass 2 runs in place down the columns.
//!
//! On CPUs, when 8 rows (or, for an R2C half, 8 columns) fill a leaf's lanes, the two passes run as one
//! kernel with a DFT across the lanes for the short one (`across_lanes`); so do 5 or 7 rows, lanes left idle.
//!
//! A twiddle the job itself must apply to its output is carried into the last pass, re-expressed in that
//! pass's coordinates; so are the factors fused into its load (first pass) and store (last pass).
//!
//! When `columns` is longer than one kernel, it splits as middle * c, and the job runs in three passes over
//! n = r b c (r = rows, b = middle) with n = m + r b n3, m = n1 + r n2, and k = k3 + c k2 + c b k1, since
//! w_n^(n k) = w_c^(n3 k3) w_n^(m k3) w_b^(n2 k2) w_rb^(n1 k2) w_r^(n1 k1):
//! 1. for each m, an FFT of length c over n3, times w_n^(m k3), from the source to the same positions of the
//!    intermediate (lanes along m, which is contiguous);
//! 2. for each (n1, k3), an FFT of length b over n2 in place, times w_rb^(n1 k2) (none when b = 1);
//! 3. for each (k2, k3), an FFT of length r over n1: the intermediate's position n1 + r k2 + r b k3 then
//!    holds X[k3 + c k2 + c b k1] with k1 in place of n1, so the digits come out reversed.
//!
//! With scratch, the intermediate is a scratch region and pass 3 stores each value where it belongs.
//! Without (`Problem::no_scratch`), c = r: the intermediate is the destination, pass 3 runs in place, and
//! 4. for each k2, an in-place r x r transpose trades the digits k1 and k3 (`transpose.rs`).
//! Each leaf reads and writes whole transforms at the same positions, so passes 1-3 then need no scratch.

use super::{factor, kernel_shape, transpose, Axis, BufRef, Ctx, Job, LogicalDim, Node, Side};
use crate::codegen::bluestein::IndexedFactor;
use crate::codegen::stockham::{LanesDft, PostTwiddle, RealStage, REGISTER_LANES};
use crate::codegen::twiddle;
use crate::error::{fail, ErrorKind, Result};

pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    let n = job.fft.count;
    let max_leaf = kernel_shape::max_split_leaf(ctx.device, ctx.problem.precision);
    if ctx.problem.no_scratch {
        if job.load_factor.is_some() || job.store_factor.is_some() {
            return fail(ErrorKind::NotImplemented, "fused factors need the four-step with scratch");
        }
        let Some((a, b)) = in_place_split(n, &|len| ctx.one_kernel_pass(len)) else {
            return fail(
                ErrorKind::NotImplemented,
                format!(
                    "length {n} is not a * b * a with a one kernel long (a <= {max_leaf}, or Bluestein's \
                     convolution for a fitting one kernel) and b one kernel long or splitting the same way, the \
                     form a transform without scratch (CLFFT_REQUEST_LIB_NOMEMALLOC) needs"
                ),
            );
        };
        return three_pass(ctx, job, (a, b, a), true);
    }
    if let Some(fused) = lanes_dft(ctx, &job)? {
        return Ok(fused);
    }
    match split(ctx, &job) {
        Some(split) => plan_as(ctx, job, split),
        None => fail(ErrorKind::NotImplemented, format!("length {n} cannot be split for a four-step")),
    }
}

/// The fewest parts a DFT across the lanes may fill its lanes with (`across_lanes`), the other lanes idle: one
/// kernel with 5 of its 8 lanes busy still beats two passes (docs/tuning.md, "DFT across the lanes").
const MIN_LANES_DFT_PARTS: usize = 5;

/// `job` (complex, or a leaf's pairs of odd real transforms, which merge on the load or split on the store
/// across the parts, `RealStage::TwinMergeLanes` and `TwinSplitLanes`) as one kernel whose short pass runs
/// across the lanes of its long one, where that fits (`across_lanes`).
pub(super) fn lanes_dft(ctx: &mut Ctx, job: &Job) -> Result<Option<Node>> {
    let stages = match job.stage {
        RealStage::None => (RealStage::None, RealStage::None),
        RealStage::TwinMerge { twin_in } => (RealStage::TwinMergeLanes { twin_in }, RealStage::None),
        RealStage::TwinSplit { twin_out } => (RealStage::None, RealStage::TwinSplitLanes { twin_out }),
        _ => return fail(ErrorKind::Bugcheck, "a real stage the one-kernel four-step cannot carry across its lanes"),
    };
    match lanes_dft_rows(ctx, job) {
        Some(rows) => across_lanes(ctx, job, (rows, job.fft.count / rows), stages),
        None => Ok(None),
    }
}

/// The rows of a complex four-step whose short pass can run across the lanes of its long one: the most
/// from `REGISTER_LANES` down to `MIN_LANES_DFT_PARTS` that divide the length, the long pass in one kernel
/// (smooth: real twins of any odd length come here).
fn lanes_dft_rows(ctx: &Ctx, job: &Job) -> Option<usize> {
    let n = job.fft.count;
    (MIN_LANES_DFT_PARTS..=REGISTER_LANES)
        .rev()
        .find(|&rows| n % rows == 0 && n / rows <= ctx.max_leaf() && factor::is_smooth(n / rows))
}

/// How `plan` decomposes a job with scratch: two passes, or three over n = rows * middle * columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Split {
    Two { rows: usize, columns: usize },
    Three { rows: usize, middle: usize, columns: usize },
}

/// The decomposition `plan` takes for `job` with scratch.
pub(super) fn split(ctx: &Ctx, job: &Job) -> Option<Split> {
    if let Some((rows, columns)) = two_pass_split(ctx, job) {
        return Some(Split::Two { rows, columns });
    }
    let max_leaf = kernel_shape::max_split_leaf(ctx.device, ctx.problem.precision);
    let (rows, long) = factor::four_step_split(job.fft.count, max_leaf)?;
    let mut splits: Vec<(usize, usize)> =
        factor::divisors(long).into_iter().filter(|&c| c <= max_leaf).map(|c| (long / c, c)).collect();
    splits.sort_by_key(|&(b, c)| (b > max_leaf, b < MIN_MIDDLE, std::cmp::Reverse(c)));
    splits.first().map(|&(middle, columns)| Split::Three { rows, middle, columns })
}

/// `job` decomposed as `split` says, with scratch.
pub(super) fn plan_as(ctx: &mut Ctx, job: Job, split: Split) -> Result<Node> {
    match split {
        Split::Two { rows, columns } => plan_split(ctx, job, rows, columns),
        Split::Three { rows, middle, columns } => three_pass(ctx, job, (rows, middle, columns), false),
    }
}

/// The rows and columns of the two-pass four-step `plan` takes for `job`, if its length splits into two
/// passes with scratch.
fn two_pass_split(ctx: &Ctx, job: &Job) -> Option<(usize, usize)> {
    let n = job.fft.count;
    let bytes = n * ctx.problem.precision.complex_bytes();
    // A transform this small stays cached between the passes, so its long leaf may exceed the split cap.
    let lopsided = kernel_shape::lopsided_split_shape(ctx.device, bytes).and_then(|(lanes, groups)| {
        let longest = kernel_shape::max_lopsided_leaf(ctx.device, ctx.problem.precision);
        factor::lopsided_split(n, longest, lanes, (lanes * groups).div_ceil(job.transforms().max(1)))
    });
    let max_leaf = kernel_shape::max_split_leaf(ctx.device, ctx.problem.precision);
    lopsided.or_else(|| factor::four_step_split(n, max_leaf).filter(|&(_, columns)| columns <= max_leaf))
}

/// The shortest middle pass preferred when a split allows a longer one: a pass of a few points costs as much
/// as a longer one while each of its kernels' work-items does little (docs/tuning.md, "Shortest middle pass").
const MIN_MIDDLE: usize = 16;

/// The two-pass four-step with a chosen split (`rows * columns == job.fft.count`).
///
/// A real stage goes across the lanes of the long pass (`RealStage::R2cPostLanes`, `C2rPreLanes`): the
/// R2C post-process into the last pass when `columns` is the lane count, whose lanes (k2) then hold the
/// interleaved parts of k = k2 + columns k1; the C2R pre-process into the first pass when `rows` is, whose
/// lanes (n1) hold those of n = n1 + rows n2. With more columns, a multiple of the lanes, the R2C
/// post-process pairs the columns of the last pass with their mirrors (`RealStage::R2cPostPairs`); with more
/// rows, the C2R pre-process loads the mirrors of the first pass's rows (`RealStage::C2rPrePairs`).
pub(super) fn plan_split(ctx: &mut Ctx, job: Job, rows: usize, columns: usize) -> Result<Node> {
    let n = job.fft.count;
    check_counts(&job)?;
    let stages = match job.stage {
        RealStage::None => (RealStage::None, RealStage::None),
        RealStage::R2cPost if columns == REGISTER_LANES => (RealStage::None, RealStage::R2cPostLanes),
        RealStage::R2cPost if columns % REGISTER_LANES == 0 => {
            (RealStage::None, RealStage::R2cPostPairs { column_dims: 1 })
        }
        RealStage::C2rPre if rows == REGISTER_LANES => (RealStage::C2rPreLanes, RealStage::None),
        RealStage::C2rPre if rows % (2 * REGISTER_LANES) == 0 => (RealStage::C2rPrePairs, RealStage::None),
        _ => return fail(ErrorKind::Bugcheck, "a real stage the four-step cannot carry across its lanes"),
    };
    if let Some(fused) = across_lanes(ctx, &job, (rows, columns), stages)? {
        return Ok(fused);
    }
    let (first_stage, last_stage) = stages;
    let in_destination = intermediate_in_destination(ctx, &job);
    let between = if in_destination { job.dst } else { ctx.free_tmp(&[job.src, job.dst]) };
    let f = job.fft;
    let (fm, batch_mid) = intermediate(ctx, &job);
    // Where pass 1 puts element k2 of the FFT over n1: at the input position n1 + rows k2 (scratch), or
    // transposed at k2 + columns n1 (destination).
    let (k2_mul, n1_mul) = if in_destination { (1, columns) } else { (rows, 1) };

    let (columns_fft, col_batch, first) =
        first_pass(ctx, &job, fm, batch_mid.clone(), (rows, columns), (k2_mul, n1_mul));
    let columns_job = Job {
        post_twiddle: first.twiddle,
        load_factor: first.factor,
        in_side: job.in_side,
        stage: first_stage,
        in_count: columns + usize::from(first_stage != RealStage::None),
        ..Job::complex(columns_fft, col_batch, job.src, between)
    };

    // Pass 2 reads every dimension where pass 1 wrote it.
    let k2 = LogicalDim { count: columns, in_axis: fm.out_axis, in_mul: fm.out_mul * k2_mul, out_mul: f.out_mul, ..f };
    let row_batch = [vec![k2], read_back(&batch_mid, &job.batch)].concat();
    // The job's twiddle and store factor on k = k2 + columns k1, k2 the new dimension 0.
    let last = Indexed {
        twiddle: carried(job.post_twiddle.as_ref(), &[1], columns),
        factor: carried_factor(job.store_factor.as_ref(), &[1], columns),
    };
    let (row_batch, last) =
        innermost_first(row_batch, last, |d| d.out_mul * ctx.problem.layout(job.dst).stride(d.out_axis));
    let rows_fft = LogicalDim {
        count: rows,
        in_axis: fm.out_axis,
        in_mul: fm.out_mul * n1_mul,
        out_mul: f.out_mul * columns,
        ..f
    };
    let rows_job = Job {
        post_twiddle: last.twiddle,
        store_factor: last.factor,
        out_side: job.out_side,
        stage: last_stage,
        out_count: rows + usize::from(last_stage != RealStage::None),
        ..Job::complex(rows_fft, row_batch, between, job.dst)
    };

    let children = vec![ctx.plan_job(columns_job)?, ctx.plan_job(rows_job)?];
    Ok(Node::FourStep { n, rows, columns, children })
}

/// The two passes as one kernel where a CPU leaf's lanes can hold the interleaved parts of one transform,
/// with a DFT across them in registers for the short pass (`StockhamKernel::lanes_dft`). With as many `rows`
/// as lanes (or fewer, down to `MIN_LANES_DFT_PARTS`, the other lanes idle), the long pass runs first on
/// the parts n1 and, after the twiddle, the DFT gives X[k2 + columns k1], stored where the transposed
/// intermediate would put lane k1's element k2; a C2R pre-process goes across all the lanes of the load
/// (`RealStage::C2rPreLanes`), and odd real twins merge on the load or split on the store across odd parts
/// (`RealStage::TwinMergeLanes`, `TwinSplitLanes`). With as many `columns`, the DFT runs on the load (rows
/// of x[n1 + rows l] in lane l), the twiddle after it, and the long pass leaves lane k2 with the parts
/// k = k2 + columns k1 that an R2C post-process takes across the lanes (`RealStage::R2cPostLanes`). Each slot
/// loads its whole transform before it stores, so this runs in place too where the input and the output
/// share their positions. None when the leaf cannot take it (lanes of other transforms, strided rows, a
/// GPU) or when too few transforms would leave threads idle.
fn across_lanes(
    ctx: &mut Ctx,
    job: &Job,
    (rows, columns): (usize, usize),
    (first_stage, last_stage): (RealStage, RealStage),
) -> Result<Option<Node>> {
    let n = job.fft.count;
    let side = match (first_stage, last_stage) {
        // Fewer rows than lanes only without a real stage or with a twin stage: `lanes_dft_fits` says which
        // the kernel takes.
        (RealStage::None | RealStage::C2rPreLanes | RealStage::TwinMergeLanes { .. }, RealStage::None)
        | (RealStage::None, RealStage::TwinSplitLanes { .. })
            if rows <= REGISTER_LANES =>
        {
            LanesDft::Store
        }
        (RealStage::None, RealStage::R2cPostLanes) => LanesDft::Load,
        _ => return Ok(None),
    };
    // In place, a slot of twins, like a leaf's, stores only over the two transforms it has loaded
    // (`real::leaf_twins` keeps an odd count, whose middle transform two slots read, out of place).
    let twins = first_stage.twins_across_lanes() || last_stage.twins_across_lanes();
    // A slot per transform: enough of them to keep every thread busy, as the uneven splits ask.
    let candidate = kernel_shape::is_cpu(ctx.device)
        && job.transforms() >= kernel_shape::cpu_items_wanted(ctx.device)
        && job.post_twiddle.is_none()
        && job.store_factor.is_none()
        && (side == LanesDft::Store || job.load_factor.is_none())
        && (if side == LanesDft::Store { columns } else { rows }) <= ctx.max_leaf()
        && (!ctx.same_storage(job.src, job.dst) || same_positions(ctx, job) || twins);
    if !candidate {
        return Ok(None);
    }
    let f = job.fft;
    let (fft, batch, indexed) = if side == LanesDft::Store {
        // Pass 1 as if into the transposed intermediate in the destination.
        first_pass(ctx, job, f, job.batch.clone(), (rows, columns), (1, columns))
    } else {
        let parts = LogicalDim { count: columns, in_mul: f.in_mul * rows, ..f };
        let fft = LogicalDim { count: rows, out_mul: f.out_mul * columns, ..f };
        (fft, [vec![parts], job.batch.clone()].concat(), Indexed { twiddle: parts_twiddle(n), factor: None })
    };
    // The parts must stay batch dimension 0, the lanes.
    if indexed.twiddle.as_ref().map(|t| t.c_dim) != Some(0) {
        return Ok(None);
    }
    let fused = Job {
        post_twiddle: indexed.twiddle,
        load_factor: indexed.factor,
        in_side: job.in_side,
        out_side: job.out_side,
        stage: if first_stage != RealStage::None { first_stage } else { last_stage },
        in_count: match first_stage {
            RealStage::None => fft.count,
            RealStage::TwinMergeLanes { .. } => fft.count.div_ceil(2),
            _ => fft.count + 1,
        },
        out_count: match last_stage {
            RealStage::None => fft.count,
            RealStage::TwinSplitLanes { .. } => fft.count.div_ceil(2),
            _ => fft.count + 1,
        },
        lanes_dft: side,
        ..Job::complex(fft, batch, job.src, job.dst)
    };
    match ctx.stockham_kernel(fused) {
        Ok(kernel) if kernel.lanes_dft_fits() => {
            let leaf = ctx.push_stockham(kernel, job.src, job.dst);
            Ok(Some(Node::FourStep { n, rows, columns, children: vec![leaf] }))
        }
        _ => Ok(None),
    }
}

/// Pass 1 of the two-pass four-step: its FFT over n2 (`columns` points), its batch (n1, then `batch`,
/// innermost first on the source), and its twiddle w_n^(n1 k2) and share of the job's load factor. Element
/// k2 of n1's FFT goes to k2_mul k2 + n1_mul n1 of the intermediate `fm`.
fn first_pass(
    ctx: &Ctx,
    job: &Job,
    fm: LogicalDim,
    batch: Vec<LogicalDim>,
    (rows, columns): (usize, usize),
    (k2_mul, n1_mul): (usize, usize),
) -> (LogicalDim, Vec<LogicalDim>, Indexed) {
    let n1 = LogicalDim { count: rows, out_mul: fm.out_mul * n1_mul, ..fm };
    let indexed =
        Indexed { twiddle: parts_twiddle(job.fft.count), factor: carried_factor(job.load_factor.as_ref(), &[1], rows) };
    let (batch, indexed) = innermost_first([vec![n1], batch].concat(), indexed, |d| {
        d.in_mul * ctx.problem.layout(job.src).stride(d.in_axis)
    });
    let fft = LogicalDim { count: columns, in_mul: fm.in_mul * rows, out_mul: fm.out_mul * k2_mul, ..fm };
    (fft, batch, indexed)
}

/// The four-step twiddle w_n^(c k) of a pass whose batch dimension 0 numbers the parts c.
fn parts_twiddle(n: usize) -> Option<PostTwiddle> {
    Some(PostTwiddle { modulus: n, c_dim: 0, k_mul: 1, base_muls: vec![] })
}

/// True when the two-pass four-step keeps its intermediate in the destination, transposed, rather than in
/// scratch: on CPUs, for a cached transform (`kernel_shape::cached_on_cpu`) that writes every
/// element of a destination apart from its source. Pass 1 then stores contiguous rows and pass 2 runs in
/// place down the columns, and there is no scratch to allocate.
fn intermediate_in_destination(ctx: &Ctx, job: &Job) -> bool {
    kernel_shape::cached_on_cpu(ctx.device, job.fft.count * ctx.problem.precision.complex_bytes())
        && job.out_count == job.fft.count
        && job.out_side == Side::Complex
        && job.stage == RealStage::None
        && !ctx.same_storage(job.src, job.dst)
}

/// The three passes of n = r b c (see the module notes), through scratch or, `in_place`, on the destination
/// followed by the digit swap (then c = r).
fn three_pass(ctx: &mut Ctx, job: Job, (r, b, c): (usize, usize, usize), in_place: bool) -> Result<Node> {
    let n = job.fft.count;
    check_counts(&job)?;
    // The R2C post-process pairs the columns k3 + c k2 of the last pass, the two digits its batch starts with;
    // the C2R pre-process loads the mirrors of the first pass's r b rows.
    let (first_stage, last_stage) = match job.stage {
        RealStage::None => (RealStage::None, RealStage::None),
        RealStage::R2cPost if !in_place => {
            (RealStage::None, RealStage::R2cPostPairs { column_dims: if b > 1 { 2 } else { 1 } })
        }
        RealStage::C2rPre if !in_place && (r * b) % (2 * REGISTER_LANES) == 0 => {
            (RealStage::C2rPrePairs, RealStage::None)
        }
        _ => return fail(ErrorKind::Bugcheck, "a real stage on a three-pass decomposition"),
    };
    if in_place {
        if job.in_side != Side::Complex || job.out_side != Side::Complex {
            return fail(ErrorKind::NotImplemented, "a long real axis needs scratch");
        }
        if ctx.same_storage(job.src, job.dst) && !same_positions(ctx, &job) {
            return fail(ErrorKind::NotImplemented, "an in-place job that moves its data needs scratch");
        }
    }
    let (src, dst) = (job.src, job.dst);
    let between = if in_place { dst } else { ctx.free_tmp(&[src, dst]) };
    let f = job.fft;
    let (fm, batch_mid) = intermediate(ctx, &job);
    let digit =
        |count: usize, mul: usize| LogicalDim { count, in_mul: fm.in_mul * mul, out_mul: fm.out_mul * mul, ..fm };
    let (n1, n2, n3) = (digit(r, 1), digit(b, r), digit(c, r * b));
    let problem = ctx.problem;
    let by_input = |buffer: BufRef| move |d: &LogicalDim| d.in_mul * problem.layout(buffer).stride(d.in_axis);
    let by_output = |buffer: BufRef| move |d: &LogicalDim| d.out_mul * problem.layout(buffer).stride(d.out_axis);
    let mut children = Vec::with_capacity(4);

    // n1 and n2 together are m, one dimension of r * b contiguous positions.
    let first = Indexed { twiddle: parts_twiddle(n), factor: carried_factor(job.load_factor.as_ref(), &[1], r * b) };
    let (batch, first) = innermost_first([vec![digit(r * b, 1)], batch_mid.clone()].concat(), first, by_input(src));
    let columns = Job {
        post_twiddle: first.twiddle,
        load_factor: first.factor,
        in_side: job.in_side,
        stage: first_stage,
        in_count: c + usize::from(first_stage != RealStage::None),
        ..Job::complex(n3, batch, src, between)
    };
    children.push(ctx.plan_job(columns)?);

    let later_batch = on_output(&batch_mid);
    if b > 1 {
        let (batch, middle) = innermost_first(
            [vec![n1.as_written(), n3.as_written()], later_batch.clone()].concat(),
            Indexed { twiddle: parts_twiddle(r * b), factor: None },
            by_input(between),
        );
        let middle = Job { post_twiddle: middle.twiddle, ..Job::complex(n2.as_written(), batch, between, between) };
        let middle_splits = in_place && !ctx.one_kernel_pass(b);
        children.push(if middle_splits { in_place_middle(ctx, middle)? } else { ctx.plan_job(middle)? });
    }

    // Pass 3 reads row (k2, k3) at n1 + r k2 + r b k3; with scratch it stores X[k3 + c k2 + c b k1] in place.
    let (k2, k3, k1_mul) = if in_place {
        (n2.as_written(), n3.as_written(), f.out_mul)
    } else {
        (
            LogicalDim { out_axis: f.out_axis, out_mul: f.out_mul * c, ..n2.as_written() },
            LogicalDim { out_axis: f.out_axis, out_mul: f.out_mul, ..n3.as_written() },
            f.out_mul * c * b,
        )
    };
    let digits = if b > 1 { vec![k2, k3] } else { vec![k3] };
    let digit_muls: Vec<usize> = if b > 1 { vec![c, 1] } else { vec![1] };
    let last = Indexed {
        twiddle: carried(job.post_twiddle.as_ref(), &digit_muls, c * b),
        factor: carried_factor(job.store_factor.as_ref(), &digit_muls, c * b),
    };
    let (batch, last) = innermost_first([digits, read_back(&batch_mid, &job.batch)].concat(), last, by_output(dst));
    let rows_fft = LogicalDim { out_axis: f.out_axis, out_mul: k1_mul, ..n1.as_written() };
    let rows = Job {
        post_twiddle: last.twiddle,
        store_factor: last.factor,
        out_side: job.out_side,
        stage: last_stage,
        out_count: r + usize::from(last_stage != RealStage::None),
        ..Job::complex(rows_fft, batch, between, dst)
    };
    children.push(ctx.plan_job(rows)?);

    if in_place {
        let swap_batch = if b > 1 { [vec![n2.as_written()], later_batch].concat() } else { later_batch };
        children.push(transpose::swap_digits(ctx, dst, f.out_axis, r, (f.out_mul * r * b, f.out_mul), &swap_batch));
    }
    Ok(Node::ThreeFactor { n, rows: r, middle: b, columns: c, in_place, children })
}

/// A middle pass too long for one kernel, without scratch: the same decomposition again, on its own.
fn in_place_middle(ctx: &mut Ctx, job: Job) -> Result<Node> {
    match in_place_split(job.fft.count, &|len| ctx.one_kernel_pass(len)) {
        Some((a, b)) => three_pass(ctx, job, (a, b, a), true),
        None => fail(ErrorKind::Bugcheck, "a middle length without an in-place split"),
    }
}

/// The dimensions as the destination (and a scratch region addressed like it) sees them.
fn on_output(dims: &[LogicalDim]) -> Vec<LogicalDim> {
    dims.iter().map(|d| d.as_written()).collect()
}

/// The job's transform and batch dimensions with their output side moved to the intermediate the passes
/// share: addressed like the destination, unless the destination keeps only part of each transform
/// (Bluestein's last FFT); then packed per transform in raw units, in a region made large enough.
fn intermediate(ctx: &mut Ctx, job: &Job) -> (LogicalDim, Vec<LogicalDim>) {
    let n = job.fft.count;
    if job.out_count == n {
        return (job.fft, job.batch.clone());
    }
    ctx.need_region(n * job.transforms());
    let mut step = n;
    let batch = job
        .batch
        .iter()
        .map(|d| {
            let packed = LogicalDim { out_axis: Axis::Raw, out_mul: step, ..*d };
            step *= d.count;
            packed
        })
        .collect();
    (LogicalDim { out_axis: Axis::Raw, out_mul: 1, ..job.fft }, batch)
}

/// `dims` read from where `written` put them, and written where they stand.
fn read_back(written: &[LogicalDim], dims: &[LogicalDim]) -> Vec<LogicalDim> {
    written.iter().zip(dims).map(|(w, d)| LogicalDim { in_axis: w.out_axis, in_mul: w.out_mul, ..*d }).collect()
}

/// The job's own twiddle in the coordinates of its last pass, whose output index is k1 and whose first
/// batch dimensions are new digits: the job's k = sum digit_muls[i] digit_i + k_mul k1, and the job's
/// batch dimensions follow the new ones.
fn carried(twiddle: Option<&PostTwiddle>, digit_muls: &[usize], k_mul: usize) -> Option<PostTwiddle> {
    twiddle.map(|pt| {
        let m = pt.k_mul % pt.modulus;
        let mut base_muls: Vec<usize> = digit_muls.iter().map(|&d| mul_mod(m, d, pt.modulus)).collect();
        let shift = base_muls.len();
        base_muls.extend(pt.base_muls.iter().copied());
        PostTwiddle { modulus: pt.modulus, c_dim: pt.c_dim + shift, k_mul: mul_mod(m, k_mul, pt.modulus), base_muls }
    })
}

/// A job that reads or writes fewer elements than its length does so through a factor's limit: the passes
/// split its elements, so only the factor's index sees which are left out. A real stage reads (C2R) or
/// writes (R2C) one element more, the Nyquist value.
fn check_counts(job: &Job) -> Result<()> {
    let n = job.fft.count;
    let load_ok = job.in_count == n
        || (job.stage == RealStage::C2rPre && job.in_count == n + 1)
        || job.load_factor.as_ref().is_some_and(|f| f.limit <= job.in_count);
    let store_ok = job.out_count == n
        || (job.stage == RealStage::R2cPost && job.out_count == n + 1)
        || job.store_factor.as_ref().is_some_and(|f| f.limit <= job.out_count);
    if load_ok && store_ok {
        Ok(())
    } else {
        fail(ErrorKind::Bugcheck, "a four-step job with partial input or output and no factor limit")
    }
}

/// The job's factor in the coordinates of one of its passes, as `carried` moves a twiddle: the job's element
/// k = sum digit_muls[i] digit_i + k_mul k' of the pass's element k', and the job's batch dimensions follow
/// the new digits.
fn carried_factor(factor: Option<&IndexedFactor>, digit_muls: &[usize], k_mul: usize) -> Option<IndexedFactor> {
    factor.map(|f| IndexedFactor {
        k_mul: f.k_mul * k_mul,
        dim_muls: digit_muls.iter().map(|&d| d * f.k_mul).chain(f.dim_muls.iter().copied()).collect(),
        ..f.clone()
    })
}

/// What a pass applies by batch coordinates: its four-step twiddle and a fused factor.
struct Indexed {
    twiddle: Option<PostTwiddle>,
    factor: Option<IndexedFactor>,
}

/// Sorts batch dimensions by `stride`, shortest first: the lanes of a leaf run along dimension 0, and
/// neighbouring lanes should touch neighbouring elements. The twiddle's and the factor's dimension indices
/// follow.
fn innermost_first(
    dims: Vec<LogicalDim>,
    indexed: Indexed,
    stride: impl Fn(&LogicalDim) -> usize,
) -> (Vec<LogicalDim>, Indexed) {
    let mut order: Vec<usize> = (0..dims.len()).collect();
    order.sort_by_key(|&d| stride(&dims[d]));
    let reorder = |muls: &[usize]| order.iter().map(|&d| muls.get(d).copied().unwrap_or(0)).collect();
    let twiddle = indexed.twiddle.map(|pt| PostTwiddle {
        c_dim: order.iter().position(|&d| d == pt.c_dim).unwrap_or(pt.c_dim),
        base_muls: reorder(&pt.base_muls),
        ..pt
    });
    let factor = indexed.factor.map(|f| IndexedFactor { dim_muls: reorder(&f.dim_muls), ..f });
    (order.iter().map(|&d| dims[d]).collect(), Indexed { twiddle, factor })
}

/// True when the job reads and writes complex values at the same positions of equally laid out buffers.
fn same_positions(ctx: &Ctx, job: &Job) -> bool {
    job.in_side == Side::Complex
        && job.out_side == Side::Complex
        && ctx.problem.layout(job.src) == ctx.problem.layout(job.dst)
        && [job.fft].iter().chain(&job.batch).all(|d| d.in_axis == d.out_axis && d.in_mul == d.out_mul)
}

/// The split n = a * b * a of an in-place four-step: a pass of a runs in one kernel (`one_kernel`),
/// preferring b = 1 (three passes), then b in one kernel (four passes) and at least `MIN_MIDDLE`, then a b
/// that splits the same way again; the largest a first.
fn in_place_split(n: usize, one_kernel: &dyn Fn(usize) -> bool) -> Option<(usize, usize)> {
    let mut candidates: Vec<(usize, usize)> = factor::divisors(n)
        .into_iter()
        .filter(|&a| a > 1 && n % (a * a) == 0 && one_kernel(a))
        .map(|a| (a, n / (a * a)))
        .collect();
    candidates.sort_by_key(|&(a, b)| (b > 1, !one_kernel(b), b < MIN_MIDDLE, std::cmp::Reverse(a)));
    candidates.into_iter().find(|&(_, b)| one_kernel(b) || in_place_split(b, one_kernel).is_some())
}

/// (x * y) mod m without overflow.
fn mul_mod(x: usize, y: usize, m: usize) -> usize {
    twiddle::mul_mod(x as u64, y as u64, m as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::tuning::Target;
    use crate::planner::{test_device, Problem};
    use crate::types::{Precision, TransformKind};

    fn c2c_1d(n: usize, batch: usize, in_place: bool) -> Problem {
        Problem { in_place, ..test_device::c2c(&[n], batch) }
    }

    fn buffers(device: &crate::runtime::DeviceInfo, n: usize, in_place: bool) -> (usize, Vec<(BufRef, BufRef)>) {
        let exec = crate::planner::plan(&c2c_1d(n, 3, in_place), &test_device::target(device)).unwrap();
        (exec.tmp_regions, exec.steps.iter().map(|s| (s.src, s.dst)).collect())
    }

    /// The four-step split of `batch` transforms of `n` points in one chunk (`planner::chunks`).
    fn split(device: &crate::runtime::DeviceInfo, n: usize, batch: usize) -> (usize, usize) {
        match crate::planner::plan_whole_batch(&c2c_1d(n, batch, false), &test_device::target(device), 1).unwrap().tree
        {
            Node::FourStep { rows, columns, .. } => (rows, columns),
            other => panic!("not a four-step: {other}"),
        }
    }

    #[test]
    fn cpus_split_cached_transforms_unevenly_while_the_first_pass_has_work_for_every_thread() {
        let (cpu, gpu) = (test_device::cpu(), test_device::gpu());
        assert_eq!(split(&cpu, 1 << 16, 64), (16, 4096));
        // One transform: 16 rows would give the first pass 2 lane groups for 2 x 8 wanted.
        assert_eq!(split(&cpu, 1 << 16, 1), (128, 512));
        assert_eq!(split(&cpu, 1 << 20, 4), (1024, 1024));
        assert_eq!(split(&gpu, 1 << 16, 64), (256, 256));
    }

    #[test]
    fn uneven_cpu_splits_keep_their_long_leaf_within_about_half_the_local_memory() {
        let double = |n, batch| Problem { precision: crate::types::Precision::Double, ..c2c_1d(n, batch, false) };
        // The batch in one chunk (`planner::chunks`), whose split each chunk's plan repeats.
        let split_of = |device: &crate::runtime::DeviceInfo, n| match crate::planner::plan_whole_batch(
            &double(n, 64),
            &test_device::target(device),
            1,
        ) {
            Ok(exec) => match exec.tree {
                Node::FourStep { rows, columns, .. } => (rows, columns),
                other => panic!("not a four-step: {other}"),
            },
            Err(e) => panic!("{e:?}"),
        };
        // 8 lanes of 4096 double points take more than 1 MiB of local memory, and about half of 2.
        assert_eq!(split_of(&test_device::cpu(), 1 << 16), (32, 2048));
        let l2_of_2_mib = crate::runtime::DeviceInfo { local_mem_bytes: 2 << 20, ..test_device::cpu() };
        assert_eq!(split_of(&l2_of_2_mib, 1 << 16), (16, 4096));
        // Those of 2401 take 0.6 MiB: too much of 1 MiB, not of 2. (Output elements two apart keep 16807
        // from the one kernel of 7 x 2401.)
        let spaced = |n| {
            let mut problem = double(n, 64);
            problem.output.strides[0] = 2;
            problem.output.dist *= 2;
            problem
        };
        let spaced_split = |device: &crate::runtime::DeviceInfo| match crate::planner::plan_whole_batch(
            &spaced(16807),
            &test_device::target(device),
            1,
        )
        .unwrap()
        .tree
        {
            Node::FourStep { rows, columns, children, .. } if children.len() == 2 => (rows, columns),
            other => panic!("not a two-pass four-step: {other}"),
        };
        assert_eq!(spaced_split(&test_device::cpu()), (49, 343));
        assert_eq!(spaced_split(&l2_of_2_mib), (7, 2401));
    }

    #[test]
    fn cpu_decompositions_of_uncached_transforms_keep_leaves_within_32_kib() {
        let double = |n, batch| Problem { precision: crate::types::Precision::Double, ..c2c_1d(n, batch, false) };
        let cpu = test_device::cpu();
        match crate::planner::plan(&double(1 << 24, 1), &test_device::target(&cpu)).unwrap().tree {
            Node::ThreeFactor { rows: 2048, middle: 16, columns: 512, .. } => {}
            other => panic!("2^24 double: {other}"),
        }
        // Single precision fits 4096 points in 32 KiB; one 4096-point double transform is still one kernel.
        assert_eq!(split(&cpu, 1 << 24, 1), (4096, 4096));
        assert!(matches!(
            crate::planner::plan(&double(4096, 1), &test_device::target(&cpu)).unwrap().tree,
            Node::Leaf { .. }
        ));
        // A batch of cached transforms still splits as unevenly as it can (2401 double points take 37.5 KiB).
        let l2_of_2_mib = crate::runtime::DeviceInfo { local_mem_bytes: 2 << 20, ..test_device::cpu() };
        match crate::planner::plan(&double(16807, 249), &test_device::target(&l2_of_2_mib)).unwrap().tree {
            Node::FourStep { rows: 7, columns: 2401, .. } => {}
            other => panic!("16807 double: {other}"),
        }
    }

    #[test]
    fn cpus_keep_the_out_of_place_intermediate_of_a_cached_transform_in_the_destination() {
        use BufRef::*;
        let (cpu, gpu) = (test_device::cpu(), test_device::gpu());
        let through_scratch = (1, vec![(Input, Tmp(0)), (Tmp(0), Output)]);
        assert_eq!(buffers(&cpu, 1 << 16, false), (0, vec![(Input, Output), (Output, Output)]));
        assert_eq!(buffers(&cpu, 1 << 16, true), through_scratch);
        assert_eq!(buffers(&gpu, 1 << 16, false), through_scratch);
        // 8 MiB per transform.
        assert_eq!(buffers(&cpu, 1 << 20, false), through_scratch);
    }

    #[test]
    fn cpus_run_four_steps_of_eight_rows_as_one_kernel_with_a_dft_across_the_lanes() {
        let (cpu, gpu) = (test_device::cpu(), test_device::gpu());
        let one_kernel = |problem: &Problem, device: &Target| {
            let exec = crate::planner::plan(problem, device).unwrap();
            let fused = matches!(&exec.tree, Node::FourStep { children, .. } if children.len() == 1);
            assert_eq!(fused, exec.steps.len() == 1, "{}", exec.tree);
            fused && exec.tmp_regions == 0
        };
        for n in [1 << 13, 1 << 14, 3 << 13] {
            assert!(one_kernel(&c2c_1d(n, 64, false), &test_device::target(&cpu)), "{n}");
            assert!(one_kernel(&c2c_1d(n, 64, true), &test_device::target(&cpu)), "{n} in place");
        }
        // 7 rows leave one lane idle, in double too, where 2401 points take 0.6 MiB of local memory.
        for precision in [Precision::Single, Precision::Double] {
            let problem = Problem { precision, ..c2c_1d(16807, 64, false) };
            assert!(one_kernel(&problem, &test_device::target(&cpu)), "16807 {precision:?}");
            assert!(matches!(
                crate::planner::plan(&problem, &test_device::target(&cpu)).unwrap().tree,
                Node::FourStep { rows: 7, .. }
            ));
        }
        // Real halves of 8 x 1024: R2C with the DFT on the load, C2R on the store.
        for kind in [TransformKind::R2C, TransformKind::C2R] {
            let real = test_device::transform(kind, &[1 << 14], 64, false, Precision::Single);
            assert!(one_kernel(&real, &test_device::target(&cpu)), "{kind:?}");
            let in_place = test_device::transform(kind, &[1 << 14], 64, true, Precision::Single);
            assert!(!one_kernel(&in_place, &test_device::target(&cpu)), "{kind:?} in place");
        }
        // GPU lanes are work-items, and 16 rows are twice the CPU lanes.
        assert!(!one_kernel(&c2c_1d(1 << 14, 64, false), &test_device::target(&gpu)));
        assert!(!one_kernel(&c2c_1d(1 << 16, 64, false), &test_device::target(&cpu)));
        // Output elements two apart do not store as rows of vectors.
        let mut strided = c2c_1d(1 << 14, 64, false);
        strided.output.strides[0] = 2;
        strided.output.dist *= 2;
        assert!(!one_kernel(&strided, &test_device::target(&cpu)));
    }

    #[test]
    fn in_place_splits_prefer_fewer_passes_then_middles_of_16_then_longer_outer_factors() {
        let in_place_split = |n, max_leaf: usize| super::in_place_split(n, &|len| len <= max_leaf);
        assert_eq!(in_place_split(1 << 20, 4096), Some((1024, 1)));
        assert_eq!(in_place_split(1 << 26, 4096), Some((2048, 16)));
        assert_eq!(in_place_split(1 << 27, 4096), Some((2048, 32)));
        assert_eq!(in_place_split(3 << 20, 4096), Some((256, 48)));
        assert_eq!(in_place_split(3usize.pow(15), 4096), Some((729, 27)));
        assert_eq!(in_place_split(10usize.pow(7), 4096), Some((500, 40)));
        // A middle of 2 is avoided: 2^13 = 16 * 32 * 16 rather than 64 * 2 * 64.
        assert_eq!(in_place_split(1 << 13, 4096), Some((16, 32)));
        assert_eq!(in_place_split(8, 2), Some((2, 2)));
        // 2^20 with kernels of 64: 64 * 256 * 64, and 256 = 16 * 1 * 16 again.
        assert_eq!(in_place_split(1 << 20, 64), Some((64, 256)));
        assert_eq!(in_place_split(2 * 3 * 5 * 7 * 11 * 13, 4096), None);
        assert_eq!(in_place_split(2 * 121 * 169, 64), Some((13, 242)));
    }

    #[test]
    fn carried_twiddles_follow_the_new_digits() {
        let pt = PostTwiddle { modulus: 1000, c_dim: 1, k_mul: 3, base_muls: vec![7, 0] };
        let moved = carried(Some(&pt), &[40, 1], 160).unwrap();
        assert_eq!(moved, PostTwiddle { modulus: 1000, c_dim: 3, k_mul: 480, base_muls: vec![120, 3, 7, 0] });
    }

    #[test]
    fn ordering_keeps_twiddles_and_factors_on_their_dimensions() {
        let dim = |count, mul| LogicalDim::along(super::super::Axis::Dim(0), count, mul, mul);
        let pt = PostTwiddle { modulus: 64, c_dim: 0, k_mul: 1, base_muls: vec![0, 5] };
        let factor = IndexedFactor {
            factor: crate::codegen::bluestein::Factor::Chirp { n: 64, len: 64 },
            k_mul: 1,
            dim_muls: vec![16],
            limit: 64,
        };
        let indexed = Indexed { twiddle: Some(pt), factor: Some(factor) };
        let (dims, indexed) = innermost_first(vec![dim(4, 16), dim(16, 1)], indexed, |d| d.in_mul);
        assert_eq!(dims, vec![dim(16, 1), dim(4, 16)]);
        assert_eq!(indexed.twiddle.unwrap(), PostTwiddle { modulus: 64, c_dim: 1, k_mul: 1, base_muls: vec![5, 0] });
        assert_eq!(indexed.factor.unwrap().dim_muls, vec![0, 16]);
    }
}
