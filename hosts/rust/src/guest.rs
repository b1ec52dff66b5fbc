//! What the two wasm bridges share, without merging them: the process-wide
//! runtime cell, the guest `Store` with its memory cap, and one guest
//! instance that is replaced after a trap. Each bridge says only how to
//! instantiate its guest ([`Instantiate`]); the calls stay its own.

use std::sync::OnceLock;

use wasmtime::{Engine, Store, StoreLimits, StoreLimitsBuilder};

use crate::{Error, GUEST_MEMORY_LIMIT};

/// What every guest `Store` carries: its memory cap.
pub(crate) struct GuestState {
    limits: StoreLimits,
}

/// A fresh `Store` whose guest cannot grow linear memory past
/// [`GUEST_MEMORY_LIMIT`] (growth past it fails inside the guest, which
/// answers with an allocation failure rather than taking host memory).
fn new_store(engine: &Engine) -> Store<GuestState> {
    let limits = StoreLimitsBuilder::new().memory_size(GUEST_MEMORY_LIMIT).build();
    let mut store = Store::new(engine, GuestState { limits });
    store.limiter(|state| &mut state.limits);
    store
}

/// The process-wide value in `cell`, made by `make` on first use. A failure
/// is returned, not cached: the next caller tries again.
pub(crate) fn shared<T>(cell: &'static OnceLock<T>, make: impl FnOnce() -> Result<T, Error>) -> Result<&'static T, Error> {
    if let Some(value) = cell.get() {
        return Ok(value);
    }
    let value = make()?;
    // Two threads may both compile on first use; one result is kept.
    Ok(cell.get_or_init(|| value))
}

/// A compiled guest, ready to instantiate: the one thing each bridge
/// implements for [`Guest`].
pub(crate) trait Instantiate {
    /// What the bridge calls: its bindings or its looked-up exports.
    type Instance;
    fn engine(&self) -> &Engine;
    /// A new instance in `store` (a fresh one, from [`Guest`]).
    fn instantiate(&self, store: &mut Store<GuestState>) -> Result<Self::Instance, Error>;
}

/// One guest instance in its own `Store`, with the one trap flag of a
/// generator: a call that fails with anything but a contract error
/// ([`Error::Qr`]) may have stopped the guest half-way through (wasmtime
/// also refuses to re-enter a trapped component instance), so the next call
/// first builds a fresh `Store` + instance.
pub(crate) struct Guest<P: Instantiate> {
    pre: P,
    store: Store<GuestState>,
    instance: P::Instance,
    spent: bool,
}

impl<P: Instantiate> Guest<P> {
    pub(crate) fn new(pre: P) -> Result<Self, Error> {
        let (store, instance) = Self::fresh(&pre)?;
        Ok(Guest { pre, store, instance, spent: false })
    }

    fn fresh(pre: &P) -> Result<(Store<GuestState>, P::Instance), Error> {
        let mut store = new_store(pre.engine());
        let instance = pre.instantiate(&mut store)?;
        Ok((store, instance))
    }

    /// Runs `f` on a live instance (replacing a spent one first); a failure
    /// other than a contract error marks the instance spent.
    pub(crate) fn call<R>(&mut self, f: impl FnOnce(&mut Store<GuestState>, &P::Instance) -> Result<R, Error>) -> Result<R, Error> {
        if self.spent {
            (self.store, self.instance) = Self::fresh(&self.pre)?;
            self.spent = false;
        }
        f(&mut self.store, &self.instance).inspect_err(|error| {
            if !matches!(error, Error::Qr(_)) {
                self.spent = true;
            }
        })
    }

    /// The current store and instance without a call (spent or not), to
    /// read state such as the memory size.
    pub(crate) fn peek(&self) -> (&Store<GuestState>, &P::Instance) {
        (&self.store, &self.instance)
    }
}
