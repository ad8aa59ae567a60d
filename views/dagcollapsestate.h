// SPDX-License-Identifier: MIT
#pragma once

#include <set>
#include <string>

namespace flint::views {

/// What the user opened in the DAG view: the scope groups shown expanded and the repeated-block runs
/// shown unfolded. A plain value; `key()` identifies it in the layout cache.
struct DagCollapseState {
    /// Paths of expanded groups (DagScopeTree::Group::path). The root (path "") is always expanded.
    std::set<std::string> expanded;
    /// Paths of the first group of each repeated run the user unfolded into its members.
    std::set<std::string> unfolded;

    /// A string that differs exactly when the states differ.
    std::string key() const;

    friend bool operator==(const DagCollapseState&, const DagCollapseState&) = default;
};

} // namespace flint::views
