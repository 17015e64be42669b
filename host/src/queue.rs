//! The queue of one stream's transmits, from the engine (under its lock) to the task that
//! writes the stream: unbounded (the machine bounds what it queues per listen), one
//! receiver, and small. An open listen keeps one of these for its whole life, so its size
//! is per-listen memory: an empty queue is one allocation of about 100 bytes (tokio's
//! unbounded channel allocates a 32-slot block and cache-padded halves up front, about
//! 2 KB). It also carries the keepalive nudge of the shared ticker
//! ([`crate::http`]), so an idle event stream needs no timer of its own.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use mcp_context::server::Transmit;

#[derive(Default)]
struct Inner {
    items: VecDeque<Transmit>,
    waker: Option<Waker>,
    /// Every sender is gone: once `items` is empty, the stream has ended.
    closed: bool,
    /// The receiver is gone: sends fail.
    gone: bool,
    /// A keepalive is due (set by the ticker, taken by the writer).
    nudged: bool,
}

type Shared = Arc<Mutex<Inner>>;

fn lock(s: &Shared) -> MutexGuard<'_, Inner> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Nothing queued ([`Receiver::try_recv`]).
#[derive(Debug)]
pub(crate) struct Empty;

/// The engine's end (one per stream; dropping it ends the stream).
pub(crate) struct Sender(Shared);

/// The writer's end.
pub(crate) struct Receiver(Shared);

/// A new, empty queue (no allocation beyond its one shared cell).
pub(crate) fn channel() -> (Sender, Receiver) {
    let s = Arc::new(Mutex::new(Inner::default()));
    (Sender(s.clone()), Receiver(s))
}

impl Sender {
    /// Queues `t`; gives it back when the receiver is gone.
    pub(crate) fn send(&self, t: Transmit) -> Result<(), Transmit> {
        let waker = {
            let mut q = lock(&self.0);
            if q.gone {
                return Err(t);
            }
            q.items.push_back(t);
            q.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
        Ok(())
    }

    /// A keepalive is due on this stream (an event stream writes one if it is idle).
    pub(crate) fn nudge(&self) {
        let waker = {
            let mut q = lock(&self.0);
            if q.gone {
                return;
            }
            q.nudged = true;
            q.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl Drop for Sender {
    fn drop(&mut self) {
        let waker = {
            let mut q = lock(&self.0);
            q.closed = true;
            q.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl Receiver {
    /// The next transmit; `None` once the sender is gone and the queue is empty.
    pub(crate) fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<Transmit>> {
        let mut q = lock(&self.0);
        if let Some(t) = q.items.pop_front() {
            if q.items.is_empty() && q.items.capacity() > 4 {
                // A burst is over: an idle listen keeps no large buffer.
                q.items = VecDeque::new();
            }
            return Poll::Ready(Some(t));
        }
        if q.closed {
            return Poll::Ready(None);
        }
        match &q.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => q.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// The next transmit if one is queued now.
    pub(crate) fn try_recv(&mut self) -> Result<Transmit, Empty> {
        lock(&self.0).items.pop_front().ok_or(Empty)
    }

    /// [`Receiver::poll_recv`] as a future.
    pub(crate) async fn recv(&mut self) -> Option<Transmit> {
        poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// Whether a keepalive was due since the last call (and clears it). The waker of the
    /// last [`Receiver::poll_recv`] is woken when one becomes due.
    pub(crate) fn take_nudge(&mut self) -> bool {
        std::mem::take(&mut lock(&self.0).nudged)
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let mut q = lock(&self.0);
        q.gone = true;
        q.items.clear();
        q.waker = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_context::server::{BodyKind, StreamId};

    fn t(n: u8) -> Transmit {
        Transmit {
            stream: StreamId(1),
            bytes: vec![n],
            http_status: 200,
            kind: BodyKind::Sse,
            end_of_stream: false,
        }
    }

    #[tokio::test]
    async fn in_order_then_none_once_the_sender_is_gone() {
        let (tx, mut rx) = channel();
        tx.send(t(1)).unwrap();
        tx.send(t(2)).unwrap();
        drop(tx);
        assert_eq!(rx.recv().await.unwrap().bytes, [1]);
        assert_eq!(rx.recv().await.unwrap().bytes, [2]);
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn a_send_wakes_the_waiting_receiver_and_fails_once_it_is_gone() {
        let (tx, mut rx) = channel();
        let task = tokio::spawn(async move {
            let got = rx.recv().await.map(|t| t.bytes);
            (got, rx)
        });
        tokio::task::yield_now().await;
        tx.send(t(7)).unwrap();
        let (got, rx) = task.await.unwrap();
        assert_eq!(got, Some(vec![7]));
        drop(rx);
        assert!(tx.send(t(8)).is_err());
    }

    #[tokio::test]
    async fn a_nudge_wakes_the_receiver_once() {
        let (tx, mut rx) = channel();
        assert!(!rx.take_nudge());
        tx.nudge();
        assert!(rx.take_nudge());
        assert!(!rx.take_nudge());
    }
}
