// SPDX-License-Identifier: MIT
#pragma once

#include "views/daglayout.h"

#include <cstddef>

namespace flint::views {

/// Lays out a DagLayout with Graphviz's `dot` (cgraph + gvc): node boxes, edge splines with arrow
/// heads, and a frame per expanded group (a dot cluster).
///
/// Thread-safety: callable from any thread, but Graphviz keeps process-wide state (its GVC context,
/// error handlers, the cgraph string pool) and is not safe for concurrent layouts, so calls are
/// serialised on one mutex; a second caller waits for the first to finish.
class DagLayoutEngine {
public:
    /// The most nodes one layout takes. dot's crossing minimisation grows fast with size; beyond this
    /// the view refuses to expand further.
    static constexpr std::size_t maxNodes = 2500;

    /// Size of a node's box in points, from its kind and text (an estimate that needs no fonts, so that
    /// it runs off the GUI thread).
    static QSizeF nodeSize(const DagNode& node);

    /// Fills in the geometry of `graph` (positions in points, y down, origin at the top left). Returns
    /// false, leaving `graph` without geometry, when it has more than maxNodes nodes or Graphviz fails.
    static bool layout(DagLayout& graph);
};

} // namespace flint::views
