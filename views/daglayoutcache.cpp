// SPDX-License-Identifier: MIT
#include "views/daglayoutcache.h"

namespace flint::views {

std::shared_ptr<const DagLayout> DagLayoutCache::find(const std::shared_ptr<const core::Program>& program,
                                                      const std::string& stateKey)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it->program.expired()) {
            it = m_entries.erase(it);
            continue;
        }
        if (it->address == program.get() && it->stateKey == stateKey) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().layout;
        }
        ++it;
    }
    return nullptr;
}

void DagLayoutCache::insert(const std::shared_ptr<const core::Program>& program, const std::string& stateKey,
                            std::shared_ptr<const DagLayout> layout)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->address == program.get() && it->stateKey == stateKey) {
            m_entries.erase(it);
            break;
        }
    m_entries.push_front({program, program.get(), stateKey, std::move(layout)});
    while (m_entries.size() > m_capacity)
        m_entries.pop_back();
}

std::size_t DagLayoutCache::size() const
{
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

void DagLayoutCache::clear()
{
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

} // namespace flint::views
