// bench:engine's reference: the same reshape as the engine's, on Rust's `csv` crate, single-threaded.
// Usage: rust-reshape <reshape|normalise|iso> <in.csv> <out.csv>
//   reshape:   6 of the 12 columns, renamed, in another order
//   normalise: + Booking Date DD/MM/YYYY -> MM/DD/YYYY, Betrag 1.234,56 -> 1234.56
//   iso:       + Booking Date DD/MM/YYYY -> YYYY-MM-DD, Betrag 1.234,56 -> 1234.56
// Output: RFC 4180, CRLF, quotes only where needed. Prints the data rows written to stderr.
use std::env;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::process;

const OUT_HEADERS: [&str; 6] = ["Transaction Date", "Customer", "Amount", "Email", "SKU", "Note"];
const SRC_NAMES: [&str; 6] = [
    "Booking Date",
    "Customer Name",
    "Betrag",
    "E-mail",
    "Article Number",
    "Notes",
];

#[derive(Clone, Copy, PartialEq)]
enum Job {
    Reshape,
    Normalise,
    Iso,
}

/// DD/MM/YYYY -> MM/DD/YYYY or YYYY-MM-DD; anything else is copied.
fn date(v: &[u8], job: Job, out: &mut Vec<u8>) {
    out.clear();
    if v.len() != 10 || v[2] != b'/' || v[5] != b'/' {
        out.extend_from_slice(v);
        return;
    }
    match job {
        Job::Iso => {
            out.extend_from_slice(&v[6..10]);
            out.push(b'-');
            out.extend_from_slice(&v[3..5]);
            out.push(b'-');
            out.extend_from_slice(&v[0..2]);
        }
        _ => {
            out.extend_from_slice(&v[3..5]);
            out.push(b'/');
            out.extend_from_slice(&v[0..2]);
            out.push(b'/');
            out.extend_from_slice(&v[6..10]);
        }
    }
}

/// 1.234,56 -> 1234.56: thousands dots dropped, the decimal comma a point.
fn amount(v: &[u8], out: &mut Vec<u8>) {
    out.clear();
    for &b in v {
        match b {
            b'.' => {}
            b',' => out.push(b'.'),
            _ => out.push(b),
        }
    }
}

fn run() -> Result<u64, Box<dyn std::error::Error>> {
    let args: Vec<String> = env::args().collect();
    if args.len() != 4 {
        return Err("usage: rust-reshape <reshape|normalise|iso> <in.csv> <out.csv>".into());
    }
    let job = match args[1].as_str() {
        "reshape" => Job::Reshape,
        "normalise" => Job::Normalise,
        "iso" => Job::Iso,
        j => return Err(format!("unknown job {}", j).into()),
    };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .buffer_capacity(1 << 20)
        .from_reader(BufReader::with_capacity(1 << 20, File::open(&args[2])?));
    let headers = rdr.byte_headers()?.clone();
    let mut src = [0usize; 6];
    for (j, name) in SRC_NAMES.iter().enumerate() {
        src[j] = headers
            .iter()
            .position(|h| h == name.as_bytes())
            .ok_or_else(|| format!("no column {}", name))?;
    }
    let mut wtr = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary)
        .buffer_capacity(1 << 20)
        .from_writer(BufWriter::with_capacity(1 << 20, File::create(&args[3])?));
    wtr.write_record(OUT_HEADERS.iter())?;
    let mut rec = csv::ByteRecord::new();
    let mut d = Vec::with_capacity(16);
    let mut a = Vec::with_capacity(16);
    let mut rows = 0u64;
    while rdr.read_byte_record(&mut rec)? {
        rows += 1;
        let get = |k: usize| rec.get(src[k]).unwrap_or(b"");
        if job == Job::Reshape {
            wtr.write_record([get(0), get(1), get(2), get(3), get(4), get(5)])?;
        } else {
            date(get(0), job, &mut d);
            amount(get(2), &mut a);
            wtr.write_record([&d[..], get(1), &a[..], get(3), get(4), get(5)])?;
        }
    }
    wtr.flush()?;
    Ok(rows)
}

fn main() {
    match run() {
        Ok(rows) => eprintln!("{}", rows),
        Err(e) => {
            eprintln!("rust-reshape: {}", e);
            process::exit(1);
        }
    }
}
