// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"

#include <atomic>
#include <functional>

namespace flint::core {

/// Shared flag a caller sets to ask a running core function to stop. Thread-safe.
class CancellationToken {
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    /// Throws Cancelled when cancellation was requested.
    void check() const
    {
        if (isCancelled())
            throw Cancelled();
    }

private:
    std::atomic<bool> m_cancelled{false};
};

/// Progress report: fraction done in [0, 1]. Called from the worker thread; keep it cheap.
using ProgressCallback = std::function<void(double fraction)>;

/// The cancellation token and progress callback a long core function takes; both optional.
struct JobControl {
    const CancellationToken* cancel = nullptr;
    ProgressCallback progress;

    void check() const
    {
        if (cancel)
            cancel->check();
    }
    void report(double fraction) const
    {
        if (progress)
            progress(fraction);
    }
};

} // namespace flint::core
