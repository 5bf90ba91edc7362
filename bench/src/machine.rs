//! What the bench knows of the machine it runs on.
//!
//! How busy other processes keep it while the bench runs: the load average cannot tell, as it counts the
//! bench's own threads; Linux's CPU counters can: all busy time minus this process's own (its threads and its
//! waited-for children).
//!
//! A name for its CPU, under which FFTW's wisdom is kept: wisdom does not record where it was measured.

/// Busy cores from elsewhere above which a measurement is reported as suspect: a tenth of a core is about what
/// the kernel's own threads and a shell cost.
pub const SUSPECT_CORES: f64 = 0.1;

/// CPU counters at one moment, in clock ticks.
#[derive(Clone, Copy)]
pub struct Counters {
    /// Busy ticks of all CPUs together.
    busy: u64,
    /// All ticks of all CPUs together, idle included.
    total: u64,
    /// Ticks of this process and its waited-for children.
    own: u64,
    cpus: u64,
}

impl Counters {
    /// None where /proc is missing or unreadable (not Linux).
    pub fn now() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        parse(&stat, &own)
    }

    /// Cores that other processes kept busy on average between `earlier` and now (now being `self`).
    pub fn others_busy_cores_since(&self, earlier: &Counters) -> Option<f64> {
        let elapsed_per_cpu = self.total.checked_sub(earlier.total)? as f64 / self.cpus.max(1) as f64;
        if elapsed_per_cpu <= 0.0 {
            return None;
        }
        let busy = self.busy.checked_sub(earlier.busy)? as f64;
        let own = self.own.checked_sub(earlier.own)? as f64;
        Some(((busy - own) / elapsed_per_cpu).max(0.0))
    }
}

/// Cores that other processes kept busy on average since `start`, where the counters could be read.
pub fn others_busy_cores_since(start: Option<Counters>) -> Option<f64> {
    start.zip(Counters::now()).and_then(|(start, end)| end.others_busy_cores_since(&start))
}

/// This machine's CPU as a file name: its model, its logical CPUs, and a hash of its instruction-set flags and
/// cache size, since one model name can cover different machines ("AMD EPYC" with AVX2 only, or AVX-512).
pub fn cpu_key() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpu_key_of(&cpuinfo, std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn cpu_key_of(cpuinfo: &str, cpus: usize) -> String {
    let field = |name: &str| {
        cpuinfo
            .lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim() == name)
            .map(|(_, v)| v.trim())
    };
    let model: String = field("model name")
        .unwrap_or("unknown-cpu")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let features = format!("{} / {}", field("flags").unwrap_or(""), field("cache size").unwrap_or(""));
    // FNV-1a: stable from one build to the next, unlike the standard library's hasher.
    let hash = features.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    format!("{}-{cpus}cpus-{:08x}", model.trim_matches('-'), hash as u32)
}

fn parse(stat: &str, own: &str) -> Option<Counters> {
    let cpu_line = stat.lines().find(|line| line.starts_with("cpu "))?;
    let ticks: Vec<u64> = cpu_line.split_whitespace().skip(1).map(|t| t.parse().ok()).collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already in user.
    let field = |i: usize| ticks.get(i).copied().unwrap_or(0);
    let busy = field(0) + field(1) + field(2) + field(5) + field(6);
    let total = busy + field(3) + field(4) + field(7);
    let cpus = stat.lines().filter(|line| line.starts_with("cpu") && !line.starts_with("cpu ")).count() as u64;
    // After the command name in parentheses (which may hold spaces): state is field 3, utime..cstime 14..17.
    let after_name = own.rsplit_once(')')?.1;
    let own_fields: Vec<&str> = after_name.split_whitespace().collect();
    let own_ticks = (11..15).map(|i| own_fields.get(i)?.parse::<u64>().ok()).sum::<Option<u64>>()?;
    Some(Counters { busy, total, own: own_ticks, cpus })
}

/// Today's date in UTC, as YYYY-MM-DD.
pub fn today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    civil_date(days as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A name fit for a folder: letters, digits and single dashes, lower case.
pub fn slug(name: &str) -> String {
    let mapped: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    mapped.split('-').filter(|part| !part.is_empty()).collect::<Vec<_>>().join("-")
}

/// The commit the run measures (`git describe`-like: the hash, `-dirty` with uncommitted changes), or "unknown"
/// outside a git checkout.
pub fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        None => "unknown".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_slugs() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_794), "2026-12-07");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(
            slug("pthread-skylake-avx512-Intel(R) Xeon(R) Processor"),
            "pthread-skylake-avx512-intel-r-xeon-r-processor"
        );
    }

    fn stat(user: u64, idle: u64) -> String {
        format!("cpu  {user} 0 0 {idle} 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n")
    }

    fn own(utime: u64) -> String {
        format!("42 (fftx bench) R 1 42 42 0 -1 4194304 10 0 0 0 {utime} 0 0 0 20 0 3 0 100 0 0")
    }

    #[test]
    fn busy_time_that_is_not_this_processes_counts_as_other_load() {
        let start = parse(&stat(1000, 1000), &own(500)).unwrap();
        // 200 ticks per CPU pass; this process uses 100 busy ticks, someone else 200: one core.
        let end = parse(&stat(1300, 1100), &own(600)).unwrap();
        let cores = end.others_busy_cores_since(&start).unwrap();
        assert!((cores - 1.0).abs() < 1e-9, "{cores}");
    }

    #[test]
    fn a_machine_busy_only_with_this_process_has_no_other_load() {
        let start = parse(&stat(1000, 1000), &own(500)).unwrap();
        let end = parse(&stat(1400, 1000), &own(900)).unwrap();
        assert_eq!(end.others_busy_cores_since(&start), Some(0.0));
    }

    #[test]
    fn cpus_of_one_model_with_other_instruction_sets_get_other_keys() {
        let info =
            |flags: &str| format!("processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: {flags}\ncache size\t: 512 KB\n");
        let avx2 = cpu_key_of(&info("fpu sse2 avx2"), 2);
        assert_eq!(avx2, cpu_key_of(&info("fpu sse2 avx2"), 2));
        assert!(avx2.starts_with("AMD-EPYC-2cpus-"), "{avx2}");
        assert!(avx2.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "{avx2}");
        assert_ne!(avx2, cpu_key_of(&info("fpu sse2 avx2 avx512f"), 2));
        assert_ne!(avx2, cpu_key_of(&info("fpu sse2 avx2"), 4));
        assert!(cpu_key_of("", 1).starts_with("unknown-cpu-1cpus-"));
    }

    #[test]
    fn unreadable_counters_give_no_figure() {
        assert!(parse("intr 1 2 3", &own(5)).is_none());
        assert!(parse(&stat(1, 1), "42 (no fields").is_none());
    }
}
