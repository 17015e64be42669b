//! The machines' output-ready signal as a Python callback: `set_waker(callback)` builds a
//! `core::task::Waker` whose wake calls `callback()` (docs/server-machine.md, the drain rule).
//! The callback runs inside the machine call that queued the output, so it must not call the
//! machine (the machine is locked): it schedules a drain (e.g. `loop.call_soon`). An exception
//! it raises is reported through `sys.unraisablehook` and otherwise ignored.

use std::sync::Arc;
use std::task::{Wake, Waker};

use pyo3::prelude::*;

struct PyWaker {
    callback: Py<PyAny>,
}

impl Wake for PyWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        Python::attach(|py| {
            if let Err(e) = self.callback.call0(py) {
                e.write_unraisable(py, Some(self.callback.bind(py)));
            }
        });
    }
}

/// A `Waker` that calls `callback()`; `TypeError` when it is not callable.
pub(crate) fn from_callback(callback: &Bound<'_, PyAny>) -> PyResult<Waker> {
    if !callback.is_callable() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "the waker must be callable",
        ));
    }
    Ok(Waker::from(Arc::new(PyWaker {
        callback: callback.clone().unbind(),
    })))
}
