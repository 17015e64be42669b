//! The lead (wide targets): the chain of lone static segments from the root that every
//! route starts with, so that a URI starting with them enters the trie past them
//! (docs/matching.md §7.1; the walk in `walk.rs` uses it).

use super::{Index, NO_INLINE, NONE};
use crate::template::store::Storage;

/// The chain of static segments from the root that every route walks first (wide targets):
/// the keys and their `/`s, and the node they lead to. A URI that starts with these bytes
/// enters the walk at `node`, as the walk would have reached it; any other URI is walked from
/// the root. The chain stops before a node with one template (the walk runs it from there),
/// with anything but one static child, or past 16 bytes.
#[derive(Clone, Copy)]
pub(crate) struct Lead {
    pub(super) node: u32,
    pub(super) len: u8,
    /// `node` is a static fan-out: several static children and nothing else, more than one
    /// template (what [`Index::fan_out`] needs, known when the lead is built).
    pub(super) fan: bool,
    pub(super) text: [u8; 16],
}

impl Lead {
    pub(crate) const NONE: Self = Self {
        node: NONE,
        len: 0,
        fan: false,
        text: [0; 16],
    };
}

impl<S: Storage> Index<S> {
    /// Whether `node` is a static fan-out (see `Lead::fan`).
    fn is_fan(&self, node: u32) -> bool {
        let n = self.node(node);
        n.count != 1 && n.wild == NONE && n.patterns == NONE && n.tails == NONE && n.statics >= 2
    }

    /// The [`Lead`] of the trie as it stands.
    pub(super) fn lead_of(&self) -> Lead {
        let mut lead = self.lead_chain();
        lead.fan = lead.node != NONE && self.is_fan(lead.node);
        lead
    }

    /// The chain of [`Lead`] (its `fan` not yet set).
    fn lead_chain(&self) -> Lead {
        let mut lead = Lead::NONE;
        let (mut node, mut text, mut len) = (0u32, [0u8; 16], 0usize);
        loop {
            let n = self.node(node);
            if n.count <= 1
                || n.wild != NONE
                || n.patterns != NONE
                || n.tails != NONE
                || n.statics != 1
            {
                return lead;
            }
            let Some(e) = self.edge_ref(n.one) else {
                return lead;
            };
            let k = usize::from(e.ilen);
            let (Some(key), false) = (e.ikey.get(..k), e.ilen == NO_INLINE) else {
                return lead;
            };
            let Some((slash, dst)) = text
                .get_mut(len..len + k + 1)
                .and_then(<[u8]>::split_last_mut)
            else {
                return lead;
            };
            dst.copy_from_slice(key);
            *slash = b'/';
            len += k + 1;
            node = e.child;
            lead = Lead {
                node,
                len: len as u8,
                fan: false,
                text,
            };
        }
    }
}
