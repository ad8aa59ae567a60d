// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/estimate.h"
#include "engine/scenario.h"
#include "engine/workloadloader.h"

#include <QCoreApplication>
#include <QString>

namespace flint::app {

/// The explorer's texts about a workload and its estimate, built from immutable results (no core
/// work): the step summary, the model's step figures, the comparison of two estimates, what the
/// workload fixes, and the workload's description for Details.
class StepSummary {
    Q_DECLARE_TR_FUNCTIONS(flint::app::StepSummary)

public:
    /// "Step time ... on CLUSTER (DEVICE)" and the mean per-rank breakdown.
    static QString summaryHtml(const engine::Evaluation& evaluation);
    /// A built-in model's step figures (tokens/s, MFU, bubble, exposed communication, memory); empty
    /// for a workload read from a file.
    static QString figuresHtml(const engine::Evaluation& evaluation);
    /// "TITLE: step time and breakdown of `after` against `before`" (TITLE: "Last change", "Against
    /// baseline #3").
    static QString comparisonHtml(const core::EstimateResult& before, const core::EstimateResult& after,
                                  const QString& title);
    /// The same for step times alone (a baseline whose estimate is no longer held).
    static QString stepComparisonHtml(double before, double after, const QString& title);
    /// A note or warning of the Qt-free layers in the user's language (its template translated in
    /// the Diagnostics context, the same arguments filled in; a verbatim one as it is).
    static QString translated(const core::Message& message);
    /// What the workload fixes (ranks, parallelism) and what stays free to change. `model`: the
    /// compiled model of a built-in model or model file (a model file is named as such).
    static QString fixedParameters(const core::LoadedWorkload& workload,
                                   const core::model::TransformerConfig* model = nullptr);
    /// Why the Parallelism panel is disabled for a file (empty for a built-in model).
    static QString parallelismFixed(const core::LoadedWorkload& workload);
    /// The workload's name, size, notes and warnings. A built-in model's (`compiled` given) is named
    /// and described in the interface's language, not in the engine's English.
    static QString workloadHtml(const core::LoadedWorkload& workload,
                                const core::model::CompiledModel* compiled = nullptr);
    /// A parallel strategy in the interface's language: what core::model::ParallelConfig::describe
    /// says ("TP 8 x PP 8 x DP 16 = 1,024 ranks, SP, 1F1B, 96 microbatches of 1, ZeRO-1, ...").
    static QString strategy(const core::model::ParallelConfig& parallel);
    /// ", " between a list's items, in the interface's language (Chinese: "，").
    static QString listSeparator();
    /// "MODEL — STRATEGY" for a built-in model's scenario.
    static QString modelTitle(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel);
    /// A duration as the views write it.
    static QString duration(double seconds);
};

} // namespace flint::app
