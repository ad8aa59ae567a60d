// SPDX-License-Identifier: MIT
#pragma once

#include "core/op.h"

#include <cstdint>

#include <QColor>
#include <QString>

class QLabel;

namespace flint::views {

/// The colour every view gives an op: compute blue, memory green, send/recv orange, each collective
/// kind its own red-to-purple shade, CPU ops grey.
QColor colorOf(const core::Op& op);
QColor colorOf(core::OpKind kind, core::CollectiveKind collective = core::CollectiveKind::AllReduce);
/// Which pass of a training step a compute op belongs to, from its scope: the built-in models'
/// "microbatch N/layer L/forward" and ".../backward" and "optimizer", JAX's "jvp(" (forward) and
/// "transpose(jvp(" (backward) in HLO op names. Other: none of these.
enum class StepPhase : std::uint8_t { Other, Forward, Backward, Optimizer };
StepPhase phaseOf(const core::Op& op);
/// The microbatch an op belongs to, from a "microbatch N" component of its scope (the built-in
/// models' pipeline steps and FSDP gradient syncs), or -1.
std::int32_t microbatchOf(const core::Op& op);
/// The timeline's colour of a compute op of `phase` (forward light blue, backward dark blue,
/// optimizer purple; Other is colorOf's compute blue).
QColor phaseColor(StepPhase phase);
/// "compute", "all-reduce", "send", ... for legends, tables and tooltips, in the user's language
/// (collective names stay as the libraries spell them).
QString kindLabel(const core::Op& op);
/// Colour for `fraction` in [0, 1] on a perceptually ordered dark-to-bright scale (heatmaps).
QColor heatColor(double fraction);
/// Colour of a change of relative size `fraction` in [0, 1] (light to dark): red for an increase,
/// blue for a decrease (the ends of ColorBrewer's RdBu scheme), for difference heatmaps.
QColor changeColor(double fraction, bool increase);
/// Greys `label` out while `stale` (its figures are an earlier estimate's, not the configuration on
/// screen) with `why` as its tooltip; an empty label has nothing to explain.
void showStale(QLabel* label, bool stale, const QString& why);

} // namespace flint::views
