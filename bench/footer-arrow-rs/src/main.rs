//! Footer decode time of arrow-rs (the `parquet` crate) on FooterBenchmark's files, for a
//! same-machine comparison with our decoder.
//!
//! Usage: footer-arrow-rs [--seconds S] [--warmup S] [--min-reps N] [--iteration-seconds S]
//!        [--methods full,noStats,...] FILE...
//!
//! Each file's footer (the Thrift bytes before the last 8 bytes: footer length + "PAR1") is read
//! into memory once; then, per method (all four unless `--methods` names some), decodes run for
//! `--warmup` seconds untimed and for `--seconds` seconds (at least `--min-reps` decodes) timed
//! one by one. One JSON line per file and method; a file that fails to decode gets one line with
//! `error` instead, and the other files go on. Methods:
//!
//! - `full`: `ParquetMetaDataReader::decode_metadata`, default options (every chunk with its
//!   statistics; `encoding_stats` folded into a bitmask, the crate's default; no page index);
//! - `noStats`: column statistics skipped (`ParquetStatisticsPolicy::SkipAll`), the rest as `full`;
//! - `noStatsNoPes`: column statistics, `encoding_stats` and size statistics skipped, the most
//!   the crate's options skip (our decoder never materialises `encoding_stats` either);
//! - `stats10`: statistics (and `encoding_stats`) of 10 of N columns only, the columns
//!   FooterBenchmark's `turboProjected` picks. The crate has no column projection in its footer
//!   decoder: every chunk of every column is still decoded; this is the closest it offers.
//!
//! `median_ms`, `min_ms`, `p10_ms`, `p90_ms`, `mean_ms` time the decode and the drop of its result
//! (freeing is part of the cost, as garbage collection is for the JVM); `decode_only_median_ms`
//! leaves the drop out. With `--iteration-seconds S` the timed period is also cut into windows of
//! S seconds, and `iteration_means_ms` gives the mean decode time of each, as a JMH iteration in
//! average-time mode does (bench/footer_writers.sh compares those). `faults_per_decode` counts the process's minor page faults during the timed decodes
//! (Linux, /proc/self/stat): glibc's malloc, left to its defaults, may hand the result's memory
//! back to the kernel on every drop, and the next decode then faults it in again, which can more
//! than double the time (bench/footer_arrow_rs.sh fixes malloc's thresholds to avoid that).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::time::{Duration, Instant};

use parquet::file::metadata::{
    ParquetMetaData, ParquetMetaDataOptions, ParquetMetaDataReader, ParquetStatisticsPolicy,
};

/// Columns whose statistics `stats10` keeps, as in FooterBenchmark (spread over the schema).
const PROJECTED: usize = 10;

struct Settings {
    seconds: f64,
    warmup: f64,
    min_reps: usize,
    /// Length of the windows `iteration_means_ms` averages over; 0 for none.
    iteration_seconds: f64,
}

const METHODS: [&str; 4] = ["full", "noStats", "noStatsNoPes", "stats10"];

fn main() {
    let mut settings = Settings { seconds: 3.0, warmup: 1.0, min_reps: 10, iteration_seconds: 0.0 };
    let mut selected: Vec<String> = METHODS.iter().map(|m| m.to_string()).collect();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => settings.seconds = number(args.next(), "--seconds"),
            "--warmup" => settings.warmup = number(args.next(), "--warmup"),
            "--min-reps" => settings.min_reps = number(args.next(), "--min-reps") as usize,
            "--iteration-seconds" => {
                settings.iteration_seconds = number(args.next(), "--iteration-seconds")
            }
            "--methods" => {
                selected = args.next().unwrap_or_default().split(',').map(str::to_string).collect();
                if let Some(m) = selected.iter().find(|m| !METHODS.contains(&m.as_str())) {
                    usage(&format!("unknown method {m}; methods: {}", METHODS.join(",")));
                }
            }
            _ if arg.starts_with("--") => usage(&format!("unknown option {arg}")),
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        usage("no files given");
    }
    for path in &files {
        let decoded = read_footer(path).map_err(|e| e.to_string()).and_then(|footer| {
            ParquetMetaDataReader::decode_metadata(&footer)
                .map(|metadata| (footer, metadata))
                .map_err(|e| e.to_string())
        });
        let (footer, metadata) = match decoded {
            Ok(decoded) => decoded,
            Err(e) => {
                println!("{{\"file\":\"{}\",\"error\":\"{}\"}}", json_escape(path), json_escape(&e));
                continue;
            }
        };
        let columns = metadata.file_metadata().schema_descr().num_columns();
        let row_groups = metadata.num_row_groups();
        drop(metadata);
        let keep: Vec<usize> = (0..PROJECTED).map(|i| i * (columns / PROJECTED)).collect();
        let methods: [(&str, Option<ParquetMetaDataOptions>); 4] = [
            ("full", None),
            (
                "noStats",
                Some(ParquetMetaDataOptions::new()
                    .with_column_stats_policy(ParquetStatisticsPolicy::SkipAll)),
            ),
            (
                "noStatsNoPes",
                Some(ParquetMetaDataOptions::new()
                    .with_column_stats_policy(ParquetStatisticsPolicy::SkipAll)
                    .with_encoding_stats_policy(ParquetStatisticsPolicy::SkipAll)
                    .with_size_stats_policy(ParquetStatisticsPolicy::SkipAll)),
            ),
            (
                "stats10",
                Some(ParquetMetaDataOptions::new()
                    .with_column_stats_policy(ParquetStatisticsPolicy::skip_except(&keep))
                    .with_encoding_stats_policy(ParquetStatisticsPolicy::skip_except(&keep))
                    .with_size_stats_policy(ParquetStatisticsPolicy::skip_except(&keep))),
            ),
        ];
        for (name, options) in methods.iter().filter(|(name, _)| selected.iter().any(|m| m == name)) {
            let decode = || {
                ParquetMetaDataReader::decode_metadata_with_options(&footer, options.as_ref())
                    .unwrap_or_else(|e| fail(&format!("{path}: {name}: {e}")))
            };
            let samples = measure(&settings, decode);
            println!(
                "{{\"file\":\"{}\",\"method\":\"{}\",\"footer_bytes\":{},\"row_groups\":{},\
                 \"columns\":{},\"reps\":{},\"median_ms\":{:.4},\"min_ms\":{:.4},\"p10_ms\":{:.4},\
                 \"p90_ms\":{:.4},\"mean_ms\":{:.4},\"decode_only_median_ms\":{:.4},\
                 \"faults_per_decode\":{:.1},\"iteration_means_ms\":[{}]}}",
                json_escape(path),
                name,
                footer.len(),
                row_groups,
                columns,
                samples.total.len(),
                percentile(&samples.total, 0.5),
                percentile(&samples.total, 0.0),
                percentile(&samples.total, 0.1),
                percentile(&samples.total, 0.9),
                samples.total.iter().sum::<f64>() / samples.total.len() as f64,
                percentile(&samples.decode_only, 0.5),
                samples.faults_per_decode,
                samples
                    .iteration_means
                    .iter()
                    .map(|m| format!("{m:.4}"))
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
    }
}

/// Sorted per-decode times in milliseconds.
struct Samples {
    total: Vec<f64>,
    decode_only: Vec<f64>,
    faults_per_decode: f64,
    /// Mean decode time of each `--iteration-seconds` window, in order.
    iteration_means: Vec<f64>,
}

fn measure(settings: &Settings, decode: impl Fn() -> ParquetMetaData) -> Samples {
    let warmup_end = Instant::now() + Duration::from_secs_f64(settings.warmup);
    while Instant::now() < warmup_end {
        std::hint::black_box(decode());
    }
    let mut total = Vec::new();
    let mut decode_only = Vec::new();
    let mut iteration_means = Vec::new();
    let faults_before = minor_faults();
    let begin = Instant::now();
    let end = begin + Duration::from_secs_f64(settings.seconds);
    let window = Duration::from_secs_f64(settings.iteration_seconds);
    let (mut window_end, mut window_first) = (begin + window, 0);
    while total.len() < settings.min_reps || Instant::now() < end {
        let start = Instant::now();
        let metadata = std::hint::black_box(decode());
        let decoded = Instant::now();
        drop(metadata);
        let dropped = Instant::now();
        total.push((dropped - start).as_secs_f64() * 1e3);
        decode_only.push((decoded - start).as_secs_f64() * 1e3);
        if !window.is_zero() && dropped >= window_end {
            let times = &total[window_first..];
            iteration_means.push(times.iter().sum::<f64>() / times.len() as f64);
            (window_end, window_first) = (dropped + window, total.len());
        }
    }
    let faults_per_decode = (minor_faults() - faults_before) as f64 / total.len() as f64;
    total.sort_by(f64::total_cmp);
    decode_only.sort_by(f64::total_cmp);
    Samples { total, decode_only, faults_per_decode, iteration_means }
}

/// Minor page faults of this process so far (field 10 of /proc/self/stat; 0 where unavailable).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name (field 2) may contain spaces; count fields after its closing parenthesis.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Nearest-rank percentile of sorted samples (q = 0 is the minimum).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[rank]
}

/// The footer's Thrift bytes: `length` bytes before the trailing length and "PAR1".
fn read_footer(path: &str) -> std::io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let size = file.metadata()?.len();
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    if size < 12 {
        return Err(bad("too short for a Parquet file"));
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(size - 8))?;
    file.read_exact(&mut tail)?;
    if &tail[4..] != b"PAR1" {
        return Err(bad("no PAR1 magic at the end (encrypted or not Parquet)"));
    }
    let length = u32::from_le_bytes(tail[..4].try_into().unwrap()) as u64;
    if length + 8 > size {
        return Err(bad("footer length exceeds the file"));
    }
    let mut footer = vec![0u8; length as usize];
    file.seek(SeekFrom::Start(size - 8 - length))?;
    file.read_exact(&mut footer)?;
    Ok(footer)
}

fn json_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn number(value: Option<String>, option: &str) -> f64 {
    value
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| usage(&format!("{option} needs a number")))
}

fn usage(message: &str) -> ! {
    eprintln!(
        "{message}\nusage: footer-arrow-rs [--seconds S] [--warmup S] [--min-reps N] \
         [--iteration-seconds S] [--methods {}] FILE...",
        METHODS.join(",")
    );
    std::process::exit(2)
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1)
}
