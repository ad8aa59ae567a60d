// SPDX-License-Identifier: MIT
#include "views/dagcollapsestate.h"

namespace flint::views {

std::string DagCollapseState::key() const
{
    // '\n' never occurs in a scope path; '\t' separates the two sets.
    std::string key;
    for (const std::string& path : expanded)
        key += path + '\n';
    key += '\t';
    for (const std::string& path : unfolded)
        key += path + '\n';
    return key;
}

} // namespace flint::views
