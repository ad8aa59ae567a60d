// SPDX-License-Identifier: MIT
#pragma once

#include "core/program.h"
#include "views/daglayout.h"

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>

namespace flint::views {

/// Finished layouts keyed by (program, collapse state), so that collapsing a group again or going back
/// to a rank shows at once. Holds the program weakly: an entry whose program is gone never matches,
/// even if a new program reuses its address. Least recently used entries go first.
///
/// Thread-safe: workers insert, the GUI thread looks up.
class DagLayoutCache {
public:
    explicit DagLayoutCache(std::size_t capacity = 32)
        : m_capacity(capacity)
    {}

    /// The layout stored for `program` and `stateKey` (DagCollapseState::key()), or null.
    std::shared_ptr<const DagLayout> find(const std::shared_ptr<const core::Program>& program,
                                          const std::string& stateKey);
    void insert(const std::shared_ptr<const core::Program>& program, const std::string& stateKey,
                std::shared_ptr<const DagLayout> layout);
    std::size_t size() const;
    void clear();

private:
    struct Entry {
        std::weak_ptr<const core::Program> program;
        const core::Program* address = nullptr;
        std::string stateKey;
        std::shared_ptr<const DagLayout> layout;
    };
    mutable std::mutex m_mutex;
    std::list<Entry> m_entries; // most recently used first
    std::size_t m_capacity;
};

} // namespace flint::views
