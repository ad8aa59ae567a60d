// SPDX-License-Identifier: MIT
#pragma once

#include "core/op.h"

#include <QColor>
#include <QString>

namespace flint::views {

/// The colour every view gives an op: compute blue, memory green, send/recv orange, each collective
/// kind its own red-to-purple shade, CPU ops grey.
QColor colorOf(const core::Op& op);
QColor colorOf(core::OpKind kind, core::CollectiveKind collective = core::CollectiveKind::AllReduce);
/// "compute", "all-reduce", "send", ... for legends and tooltips.
QString kindLabel(const core::Op& op);
/// Colour for `fraction` in [0, 1] on a perceptually ordered dark-to-bright scale (heatmaps).
QColor heatColor(double fraction);

} // namespace flint::views
