//! Pipelined `resources/read` over stdio, the way the issue measures a stdio server: one
//! client process writes request lines with up to `--window` in flight and counts the answer
//! lines without parsing them (the first answer of every server is checked). The same client
//! drives every server, in interleaved rounds, so their ratios come from the same run.
//!
//! `floor` is the pipe's floor: a 30-line program answering each line with a canned result.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The pipe's floor: reads lines, answers each with the bytes our bench server gives for
/// `bench://item/1`, the request's id copied in. No JSON parsing, no MCP.
pub(crate) fn floor() {
    let mut r = BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let mut w = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            break;
        }
        let Some(at) = line.windows(5).position(|x| x == b"\"id\":") else {
            continue;
        };
        let id = &line[at + 5..];
        let id = &id[..id.iter().position(|&b| b == b',' || b == b'}').unwrap_or(0)];
        let _ = w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":");
        let _ = w.write_all(id);
        let _ = w.write_all(br#","result":{"resultType":"complete","contents":[{"uri":"bench://item/1","mimeType":"text/plain","text":"item 1"}],"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench-ours","version":"1.0.0"}}}}"#);
        let _ = w.write_all(b"\n");
        if r.buffer().is_empty() && w.flush().is_err() {
            break;
        }
    }
    let _ = w.flush();
}

/// One stdio server to drive: a name and a command line (split on spaces).
pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) cmd: Vec<String>,
}

pub(crate) struct Options {
    pub(crate) seconds: f64,
    pub(crate) window: u64,
    /// The request, `{id}` standing for a fresh id.
    pub(crate) line: String,
    /// Substrings of which the first answer must contain one.
    pub(crate) expect: Vec<String>,
    /// Lines sent before measuring, each answered by one line (an `initialize`).
    pub(crate) pre: Vec<String>,
    /// Lines sent before measuring that get no answer (a notification).
    pub(crate) notes: Vec<String>,
}

fn request(line: &str, id: u64, out: &mut Vec<u8>) {
    let (a, b) = line
        .split_once("{id}")
        .expect("the request line has an {id}");
    out.extend_from_slice(a.as_bytes());
    out.extend_from_slice(id.to_string().as_bytes());
    out.extend_from_slice(b.as_bytes());
    out.push(b'\n');
}

fn spawn(t: &Target) -> Child {
    Command::new(&t.cmd[0])
        .args(&t.cmd[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: cannot start {:?}: {e}", t.name, t.cmd))
}

/// Reads per second of one run of `t`.
pub(crate) fn run(t: &Target, o: &Options) -> f64 {
    let mut child = spawn(t);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::with_capacity(256 * 1024, child.stdout.take().expect("stdout"));
    let mut first = String::new();
    for pre in &o.pre {
        stdin
            .write_all(pre.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .expect("write");
        stdin.flush().expect("flush");
        first.clear();
        stdout.read_line(&mut first).expect("read");
    }
    for note in &o.notes {
        stdin
            .write_all(note.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .expect("write");
    }
    let mut buf = Vec::new();
    request(&o.line, 1_000_000_000, &mut buf);
    stdin.write_all(&buf).expect("write");
    stdin.flush().expect("flush");
    first.clear();
    stdout.read_line(&mut first).expect("read");
    assert!(
        o.expect.iter().any(|e| first.contains(e.as_str())),
        "{}: the first answer lacks {:?}: {first}",
        t.name,
        o.expect
    );
    // Answers counted by the reader thread; the writer keeps `window` in flight.
    let answered = Arc::new((Mutex::new(0u64), Condvar::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let total = Arc::new(AtomicU64::new(0));
    let reader = {
        let (answered, stop, total) = (answered.clone(), stop.clone(), total.clone());
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 256 * 1024];
            let mut rd = stdout.into_inner();
            // Whatever the BufReader held past the first line is not expected (one answer).
            loop {
                let n = match rd.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let lines = chunk[..n].iter().filter(|&&b| b == b'\n').count() as u64;
                total.fetch_add(lines, Ordering::Relaxed);
                let (m, cv) = &*answered;
                *m.lock().expect("lock") += lines;
                cv.notify_one();
                if stop.load(Ordering::Relaxed) {
                    break;
                }
            }
        })
    };
    let writer = {
        let (answered, stop, line, window) =
            (answered.clone(), stop.clone(), o.line.clone(), o.window);
        std::thread::spawn(move || {
            let mut sent = 0u64;
            let mut buf = Vec::with_capacity(64 * 1024);
            while !stop.load(Ordering::Relaxed) {
                let done = {
                    let (m, cv) = &*answered;
                    let mut a = m.lock().expect("lock");
                    // Refill when half the window is answered: fewer, larger writes.
                    while sent - *a > window / 2 && !stop.load(Ordering::Relaxed) {
                        a = cv
                            .wait_timeout(a, Duration::from_millis(50))
                            .expect("lock")
                            .0;
                    }
                    *a
                };
                buf.clear();
                for _ in 0..window - (sent - done) {
                    sent += 1;
                    request(&line, sent, &mut buf);
                }
                if stdin.write_all(&buf).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
            drop(stdin);
        })
    };
    std::thread::sleep(Duration::from_secs(1));
    let (c0, t0) = (total.load(Ordering::Relaxed), Instant::now());
    std::thread::sleep(Duration::from_secs_f64(o.seconds));
    let (c1, dt) = (total.load(Ordering::Relaxed), t0.elapsed().as_secs_f64());
    stop.store(true, Ordering::Relaxed);
    answered.1.notify_all();
    let _ = writer.join();
    let _ = child.kill();
    let _ = reader.join();
    let _ = child.wait();
    (c1 - c0) as f64 / dt
}

/// Runs every target `rounds` times, interleaved, and keeps each one's best round (the
/// machine is shared: a slow round is someone else's load).
pub(crate) fn compare(targets: &[Target], o: &Options, rounds: usize) -> Vec<f64> {
    let mut best = vec![0f64; targets.len()];
    for _ in 0..rounds {
        for (i, t) in targets.iter().enumerate() {
            best[i] = best[i].max(run(t, o));
        }
    }
    best
}
