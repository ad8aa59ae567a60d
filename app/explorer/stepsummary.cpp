// SPDX-License-Identifier: MIT
#include "app/explorer/stepsummary.h"

#include "core/estimator/estimateexport.h"
#include "core/measured/validation.h"
#include "views/timelinegeometry.h"

#include <filesystem>

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

namespace flint::app {
namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

/// A message's argument in the user's locale when it is a plain number, alone or with a unit
/// ("3200" -> "3.200", "71.409 ms" -> "71,409 ms" in German; "us" as "µs"); anything else (names,
/// meshes, source text) as it is.
QString localisedArgument(const std::string& argument)
{
    static const QRegularExpression number(QStringLiteral("^(-?[0-9]+)(?:\\.([0-9]+))?(?: ([a-zA-Z]+))?$"));
    QString text = qs(argument);
    const QRegularExpressionMatch match = number.match(text);
    if (!match.hasMatch())
        return text;
    bool ok = false;
    QString value;
    if (match.capturedLength(2) == 0) {
        const qlonglong whole = match.captured(1).toLongLong(&ok);
        value = QLocale().toString(whole);
    } else {
        const double real = text.section(QLatin1Char(' '), 0, 0).toDouble(&ok);
        value = QLocale().toString(real, 'f', static_cast<int>(match.capturedLength(2)));
    }
    if (!ok)
        return text;
    QString unit = match.captured(3);
    if (unit == QLatin1String("us"))
        unit = QStringLiteral("µs");
    return unit.isEmpty() ? value : value + QChar(0x00a0) + unit; // no-break, as views::formatDuration
}

bool isModule(const core::LoadedWorkload& workload)
{
    return workload.kind == core::InputKind::HloModule || workload.kind == core::InputKind::MlirModule;
}

} // namespace

QString StepSummary::duration(double seconds)
{
    return qs(views::formatDuration(seconds));
}

QString StepSummary::summaryHtml(const engine::Evaluation& evaluation)
{
    const core::EstimateResult& result = *evaluation.result;
    const core::Cluster& cluster = evaluation.scenario.cluster;
    const core::MeanBreakdown now = core::meanBreakdown(result);
    QString text =
        tr("<b>Step time %1</b> on %2 (%3)<br>per rank: compute %4, exposed communication %5, idle %6")
            .arg(duration(result.stepTime), cluster.edited ? tr("%1, edited").arg(qs(cluster.name)) : qs(cluster.name),
                 qs(cluster.device.name), duration(now.compute), duration(now.exposedComm), duration(now.idle));
    // Ranks that end before the slowest: say how much of their idle time that is.
    if (now.afterLastOp > 0.005 * result.stepTime)
        text += tr("<br><small>idle includes %1 after the rank's last op, waiting for the slowest rank</small>")
                    .arg(duration(now.afterLastOp));
    if (now.contention > 0)
        text += tr("<br><small>compute includes %1 lost to communication running beside it (%2% of the "
                   "overlap)</small>")
                    .arg(duration(now.contention))
                    .arg(QLocale().toString(100 * cluster.overlapSlowdown(), 'f', 1));
    if (now.linkSharing > 0)
        text += tr("<br><small>communication includes %1 lost to transfers beside it sharing their links</small>")
                    .arg(duration(now.linkSharing));
    if (now.host > 0)
        text += tr("<br><small>host gaps: %1 of the device waiting for its host, as measured (idle, or exposed "
                   "communication where a collective ran)</small>")
                    .arg(duration(now.host));
    if (const double sustained = cluster.device.sustainedMatmulFor(core::Precision::BF16);
        cluster.compute.sustainedClocks && !cluster.compute.flopEfficiency && sustained < 1)
        text += tr("<br><small>matmuls and attention at the throughput %1 sustains power-saturated (%2% of its "
                   "burst figure in bf16)</small>")
                    .arg(qs(cluster.device.name))
                    .arg(QLocale().toString(100 * sustained, 'f', 0));
    // A measured profile keeps its compute times; the communication is priced for this cluster's
    // device, which may not be the one the run was measured on.
    if (evaluation.workload)
        if (const core::Message mismatch = core::measured::deviceMismatch(
                evaluation.workload->measuredDeviceKind, evaluation.workload->measuredDeviceName, cluster);
            !mismatch.text().empty())
            text += QStringLiteral("<br><span style='color:#c0392b'>") +
                    tr("Warning: %1").arg(translated(mismatch).toHtmlEscaped()) + QStringLiteral("</span>");
    return text;
}

namespace {

/// "+12.3 ms (+4.5%)": a change and its relative size.
QString delta(double value, double previous)
{
    if (previous <= 0) // from nothing: no percentage says how much
        return StepSummary::duration(value - previous);
    const double change = 100.0 * (value - previous) / previous;
    return QStringLiteral("%1 (%2%3%)")
        .arg(StepSummary::duration(value - previous), change >= 0 ? QStringLiteral("+") : QString())
        .arg(QLocale().toString(change, 'f', 1));
}

} // namespace

QString StepSummary::comparisonHtml(const core::EstimateResult& before, const core::EstimateResult& after,
                                    const QString& title)
{
    const core::MeanBreakdown old = core::meanBreakdown(before);
    const core::MeanBreakdown now = core::meanBreakdown(after);
    return tr("<b>%1</b>: step %2 → %3, %4<br>compute %5, exposed comm %6, idle %7")
        .arg(title, duration(before.stepTime), duration(after.stepTime), delta(after.stepTime, before.stepTime),
             delta(now.compute, old.compute), delta(now.exposedComm, old.exposedComm), delta(now.idle, old.idle));
}

QString StepSummary::stepComparisonHtml(double before, double after, const QString& title)
{
    return tr("<b>%1</b>: step %2 → %3, %4").arg(title, duration(before), duration(after), delta(after, before));
}

QString StepSummary::figuresHtml(const engine::Evaluation& evaluation)
{
    if (!evaluation.figures || !evaluation.compiled)
        return {};
    const core::model::StepFigures& f = *evaluation.figures;
    const double gib = 1073741824.0;
    const auto& mem = evaluation.compiled->memory;
    const auto ranks = static_cast<double>(std::max<std::size_t>(1, evaluation.result->ranks.size()));
    const QLocale locale;
    const auto gibText = [&locale, gib](double bytes) { return locale.toString(bytes / gib, 'f', 1); };
    // The figures every phase shows fill %1..%9; the memory breakdown follows.
    const auto figures = [&](const QString& text) {
        return text.arg(duration(f.stepTime))
            .arg(locale.toString(f.tokensPerSecond, 'f', 0))
            .arg(locale.toString(f.tokensPerSecond / ranks, 'f', 0))
            .arg(locale.toString(100 * f.mfu, 'f', 1))
            .arg(locale.toString(100 * f.bubbleFraction, 'f', 1))
            .arg(locale.toString(100 * f.exposedCommFraction, 'f', 1))
            .arg(gibText(f.memoryBytes))
            .arg(gibText(f.memoryCapacity))
            .arg(f.outOfMemory ? tr(" — <span style='color:#c0392b'><b>OUT OF MEMORY</b></span>") : QString());
    };
    // Inference holds weights, the KV cache and one layer's working set: named as such.
    if (evaluation.compiled->parallel.phase != core::model::Phase::Training)
        return figures(tr("<b>Step %1</b>, %2 tokens/s (%3 per GPU)<br>MFU %4% (PaLM, of the BF16 peak)<br>"
                          "pipeline bubble %5%, exposed communication %6% (busiest rank)<br>memory per GPU %7 of %8 "
                          "GiB%9<br>"
                          "<small>weights %10, KV cache %11, working set %12 GiB</small>"))
            .arg(gibText(mem.weights), gibText(mem.activations), gibText(mem.commBuffers));
    return figures(
               tr("<b>Step %1</b>, %2 tokens/s (%3 per GPU)<br>MFU %4% (PaLM, of the BF16 peak)<br>"
                  "pipeline bubble %5%, exposed communication %6% (busiest rank)<br>memory per GPU %7 of %8 GiB%9<br>"
                  "<small>weights %10, gradients %11, optimizer %12, activations %13, buffers %14 GiB</small>"))
        .arg(gibText(mem.weights), gibText(mem.gradients), gibText(mem.optimizer), gibText(mem.activations),
             gibText(mem.commBuffers));
}

QString StepSummary::parallelismFixed(const core::LoadedWorkload& workload)
{
    if (workload.kind == core::InputKind::BuiltinModel)
        return {};
    const int ranks = static_cast<int>(workload.workload.rankCount());
    return isModule(workload)
               ? tr("<b>Parallelism is fixed by the open module</b> (%Ln rank(s), as partitioned). To explore "
                    "strategies, choose a built-in model above or read a model with File…; it replaces the open "
                    "file.",
                    nullptr, ranks)
               : tr("<b>Parallelism is fixed by the open trace</b> (%Ln rank(s), as recorded). To explore "
                    "strategies, choose a built-in model above or read a model with File…; it replaces the open "
                    "file.",
                    nullptr, ranks);
}

QString StepSummary::fixedParameters(const core::LoadedWorkload& workload, const core::model::TransformerConfig* model)
{
    const auto replicas = [&workload] {
        return workload.replicaCount == 1 ? tr("1 replica") : tr("%1 replicas").arg(workload.replicaCount);
    };
    const auto partitions = [&workload] {
        return workload.numPartitions == 1 ? tr("1 partition") : tr("%1 partitions").arg(workload.numPartitions);
    };
    if (workload.kind == core::InputKind::BuiltinModel) {
        // A model file's model carries the file as its source; a built-in one its paper.
        const core::model::TransformerConfig* builtin = model ? core::model::findModel(model->name) : nullptr;
        if (model && (!builtin || builtin->source != model->source))
            return tr("The model from %1: its parallelism, schedule, batch, recomputation and dtype are set in the "
                      "Parallelism panel and recompiled on every change. Network, device and collective model are "
                      "set here.")
                .arg(QString::fromStdString(std::filesystem::path(model->source).filename().string()));
        return tr("A built-in model: its parallelism, schedule, batch, recomputation and dtype are set in the "
                  "Parallelism panel and recompiled on every change. Network, device and collective model are set "
                  "here.");
    }
    if (isModule(workload) && workload.partitioning == core::hlo::Partitioning::ByFlint)
        return tr("Fixed by this module: its global program and shardings, partitioned here for %1 devices "
                  "(%2 x %3; another mesh with flint --mesh). Network, device and collective model are free to "
                  "change.")
            .arg(QLocale().toString(static_cast<qlonglong>(workload.workload.rankCount())))
            .arg(replicas(), partitions());
    if (isModule(workload))
        return tr("Fixed by this module: %1 devices (%2 x %3) and its parallelism, which XLA "
                  "already partitioned. Network, device and collective model are free to change.")
            .arg(QLocale().toString(static_cast<qlonglong>(workload.workload.rankCount())))
            .arg(replicas(), partitions());
    return tr("Fixed by this trace: %Ln rank(s) and their communicator groups, as recorded. Network, device and "
              "collective model are free to change.",
              nullptr, static_cast<int>(workload.workload.rankCount()));
}

QString StepSummary::strategy(const core::model::ParallelConfig& p)
{
    using core::model::Phase;
    using core::model::PipelineSchedule;
    using core::model::Recompute;
    using core::model::ZeroStage;
    const QLocale locale;
    const auto n = [&locale](std::int64_t value) { return locale.toString(static_cast<qlonglong>(value)); };
    QString text = QStringLiteral("TP %1").arg(n(p.tp));
    if (p.cp > 1)
        text += QStringLiteral(" × CP %1").arg(n(p.cp));
    text += QStringLiteral(" × PP %1 × DP %2").arg(n(p.pp), n(p.dp));
    if (p.ep > 1)
        text += QStringLiteral(" (EP %1)").arg(n(p.ep));
    text += tr(" = %Ln rank(s)", nullptr, static_cast<int>(p.ranks()));
    QStringList parts{text};
    if (p.splitsSequence())
        parts << QStringLiteral("SP");
    if (p.tp > 1 && p.tpCommOverlap && p.phase == Phase::Training)
        parts << tr("TP overlap");
    if (p.phase == Phase::Training) {
        if (p.pp > 1)
            parts << (p.schedule == PipelineSchedule::GPipe ? QStringLiteral("GPipe")
                      : p.schedule == PipelineSchedule::OneFOneB
                          ? QStringLiteral("1F1B")
                          : tr("interleaved 1F1B (%n chunk(s))", nullptr, static_cast<int>(p.virtualStages)));
        parts << tr("%n microbatch(es) of %1", nullptr, static_cast<int>(p.microbatches())).arg(n(p.microbatchSize));
        QString zero = p.zero == ZeroStage::None             ? tr("no ZeRO")
                       : p.zero == ZeroStage::OptimizerState ? QStringLiteral("ZeRO-1")
                       : p.zero == ZeroStage::Gradients      ? QStringLiteral("ZeRO-2")
                                                             : QStringLiteral("ZeRO-3 (FSDP)");
        if (p.zero == ZeroStage::Parameters && p.shardGroup() < p.dp)
            zero += tr(" hybrid, shard groups of %1").arg(n(p.shardGroup()));
        if (p.zero == ZeroStage::Parameters && !p.reshardAfterForward)
            zero += tr(" without reshard after forward");
        if (p.zero == ZeroStage::Parameters && p.fsdpCopyOut)
            zero += tr(", FSDP2 copy-out");
        parts << zero;
        if (p.zero != ZeroStage::Parameters && p.dp > 1 && !p.overlapGradReduce)
            parts << tr("gradients reduced after the backward pass");
        if (p.zero != ZeroStage::Parameters && p.gathersParametersPerLayer())
            parts << tr("weights gathered during the forward pass");
        parts << (p.recompute == Recompute::None        ? tr("no recompute")
                  : p.recompute == Recompute::Selective ? tr("selective recompute")
                                                        : tr("full recompute"));
        if (p.fusedCrossEntropy)
            parts << tr("fused cross entropy");
        if (p.eagerKernels)
            parts << tr("eager kernels");
        if (p.dp > 1 && !p.gradReduceFp32)
            parts << tr("bf16 gradient reduction");
    } else {
        parts << (p.phase == Phase::Prefill ? tr("prefill, batch %1") : tr("decode, batch %1"))
                     .arg(n(p.effectiveGlobalBatch()));
    }
    if (p.dispatchesByHybridEp())
        parts << tr("HybridEP dispatch (NVLink domains of %1)").arg(n(p.nvlinkDomain));
    parts << qs(std::string(core::displayName(p.dtype)));
    if (p.dtype == core::Precision::FP8 && p.fp8Scaling == core::model::Fp8Scaling::Current)
        parts << tr("FP8 current scaling");
    return parts.join(listSeparator());
}

QString StepSummary::listSeparator()
{
    return tr(", ", "between the items of a list (Chinese: a full-width comma)");
}

QString StepSummary::translated(const core::Message& message)
{
    QString text;
    for (const core::Message::Part& part : message.parts()) {
        if (*part.source == '\0') { // verbatim: the same in every language
            text += qs(part.arguments.empty() ? std::string() : part.arguments.front());
            continue;
        }
        // The template in the user's language (English when it has no translation), filled by the
        // same one-pass core::fillArguments the English text is, with the arguments localised.
        std::vector<std::string> arguments;
        arguments.reserve(part.arguments.size());
        for (const std::string& argument : part.arguments)
            arguments.push_back(localisedArgument(argument).toStdString());
        text += qs(core::fillArguments(
            QCoreApplication::translate(core::Message::context, part.source).toStdString().c_str(), arguments));
    }
    return text;
}

QString StepSummary::modelTitle(const core::model::TransformerConfig& model,
                                const core::model::ParallelConfig& parallel)
{
    return qs(model.title) + QStringLiteral(" — ") + strategy(parallel);
}

QString StepSummary::workloadHtml(const core::LoadedWorkload& workload, const core::model::CompiledModel* compiled)
{
    QString notes;
    for (const auto& note : workload.notes)
        notes += translated(note).toHtmlEscaped() + QStringLiteral("<br>");
    if (!workload.warnings.empty()) {
        notes += tr("Warnings:<br>");
        for (const auto& w : workload.warnings)
            notes += QStringLiteral("• ") + translated(w).toHtmlEscaped() + QStringLiteral("<br>");
    }
    // Each count with its own plural (German: "1 Rang", "8 Ränge").
    const QString counts =
        tr("%Ln rank(s)", nullptr, static_cast<int>(workload.workload.rankCount())) + listSeparator() +
        tr("%Ln op(s) on rank 0", nullptr, static_cast<int>(workload.workload.programOf(0).ops.size())) +
        listSeparator() + tr("%Ln communicator group(s)", nullptr, static_cast<int>(workload.workload.groups.size()));
    return QStringLiteral("<b>%1</b><br>%2<br>%3")
        .arg((compiled ? modelTitle(compiled->model, compiled->parallel) : qs(workload.name)).toHtmlEscaped(), counts,
             notes);
}

} // namespace flint::app
