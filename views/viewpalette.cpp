// SPDX-License-Identifier: MIT
#include "views/viewpalette.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include <QCoreApplication>
#include <QLabel>

namespace flint::views {

QColor colorOf(core::OpKind kind, core::CollectiveKind collective)
{
    using core::CollectiveKind;
    using core::OpKind;
    switch (kind) {
    case OpKind::Compute:
        return QColor(0x4c, 0x78, 0xa8);
    case OpKind::MemLoad:
    case OpKind::MemStore:
        return QColor(0x59, 0xa1, 0x4f);
    case OpKind::Send:
    case OpKind::Recv:
        return QColor(0xf2, 0x8e, 0x2b);
    case OpKind::Collective:
        switch (collective) {
        case CollectiveKind::AllReduce:
            return QColor(0xe1, 0x57, 0x59);
        case CollectiveKind::AllGather:
            return QColor(0xb0, 0x7a, 0xa1);
        case CollectiveKind::ReduceScatter:
        case CollectiveKind::ReduceScatterBlock:
            return QColor(0xff, 0x9d, 0xa7);
        case CollectiveKind::AllToAll:
            return QColor(0x9c, 0x75, 0x5f);
        case CollectiveKind::CollectivePermute:
            return QColor(0xed, 0xc9, 0x48);
        default:
            return QColor(0xd3, 0x72, 0x95);
        }
    case OpKind::Invalid:
    case OpKind::Metadata:
        return QColor(0xba, 0xb0, 0xac);
    }
    return QColor(0xba, 0xb0, 0xac);
}

QColor colorOf(const core::Op& op)
{
    // Host work, and a measured run's host gaps (the device waiting for its host): grey, not the
    // compute blue, as the breakdown counts them as idle.
    if (op.isCpuOp || isHostGap(op))
        return QColor(0xba, 0xb0, 0xac);
    return colorOf(op.kind, op.collective);
}

StepPhase phaseOf(const core::Op& op)
{
    if (op.kind != core::OpKind::Compute || op.isCpuOp)
        return StepPhase::Other;
    const std::string& scope = op.scope;
    if (scope.find("/backward") != std::string::npos || scope.find("transpose(jvp(") != std::string::npos)
        return StepPhase::Backward;
    if (scope.find("/forward") != std::string::npos || scope.find("jvp(") != std::string::npos)
        return StepPhase::Forward;
    if (scope.rfind("optimizer", 0) == 0)
        return StepPhase::Optimizer;
    return StepPhase::Other;
}

std::int32_t microbatchOf(const core::Op& op)
{
    static constexpr std::string_view kPrefix = "microbatch ";
    const std::string_view scope = op.scope;
    for (std::size_t at = scope.find(kPrefix); at != std::string_view::npos; at = scope.find(kPrefix, at + 1)) {
        if (at != 0 && scope[at - 1] != '/')
            continue;
        std::int32_t value = 0;
        const char* first = scope.data() + at + kPrefix.size();
        const char* last = scope.data() + scope.size();
        const auto [end, error] = std::from_chars(first, last, value);
        if (error == std::errc() && end != first && value >= 0 && (end == last || *end == '/'))
            return value;
    }
    return -1;
}

QColor phaseColor(StepPhase phase)
{
    switch (phase) {
    case StepPhase::Forward:
        return QColor(0x86, 0xb4, 0xde);
    case StepPhase::Backward:
        return QColor(0x2b, 0x4f, 0x7e);
    case StepPhase::Optimizer:
        return QColor(0x8c, 0x6b, 0xb1);
    case StepPhase::Other:
        break;
    }
    return colorOf(core::OpKind::Compute);
}

QString kindLabel(const core::Op& op)
{
    // Collective names (all-reduce, all-to-all) are the libraries' terms and stay as they are; the
    // other kinds are words, in the user's language.
    if (op.kind == core::OpKind::Collective)
        return QString::fromUtf8(core::displayName(op.collective).data(),
                                 static_cast<qsizetype>(core::displayName(op.collective).size()));
    const char* name = "invalid";
    switch (op.kind) {
    case core::OpKind::Invalid:
    case core::OpKind::Collective:
        break;
    case core::OpKind::Metadata:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "metadata");
        break;
    case core::OpKind::MemLoad:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "memory load");
        break;
    case core::OpKind::MemStore:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "memory store");
        break;
    case core::OpKind::Compute:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "compute");
        break;
    case core::OpKind::Send:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "send");
        break;
    case core::OpKind::Recv:
        name = QT_TRANSLATE_NOOP("flint::views::kindLabel", "recv");
        break;
    }
    return QCoreApplication::translate("flint::views::kindLabel", name);
}

QColor heatColor(double fraction)
{
    // Control points of a viridis-like scale (dark purple, blue, teal, green, yellow).
    static constexpr std::array<std::array<int, 3>, 5> stops{
        {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
    const double f = std::clamp(fraction, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(f), stops.size() - 2);
    const double t = f - static_cast<double>(i);
    const auto mix = [&](int c) {
        return static_cast<int>(std::lround(stops[i][static_cast<std::size_t>(c)] * (1 - t) +
                                            stops[i + 1][static_cast<std::size_t>(c)] * t));
    };
    return QColor(mix(0), mix(1), mix(2));
}

QColor changeColor(double fraction, bool increase)
{
    // From a light tint (a small change still shows against the empty cells) to the scheme's darkest.
    static constexpr std::array<int, 3> kLightRed{253, 219, 199}, kDarkRed{103, 0, 31};
    static constexpr std::array<int, 3> kLightBlue{209, 229, 240}, kDarkBlue{5, 48, 97};
    const auto& light = increase ? kLightRed : kLightBlue;
    const auto& dark = increase ? kDarkRed : kDarkBlue;
    const double t = std::clamp(fraction, 0.0, 1.0);
    const auto mix = [&](std::size_t c) { return static_cast<int>(std::lround(light[c] * (1 - t) + dark[c] * t)); };
    return QColor(mix(0), mix(1), mix(2));
}

void showStale(QLabel* label, bool stale, const QString& why)
{
    label->setEnabled(!stale);
    label->setToolTip(stale && !label->text().isEmpty() ? why : QString());
}

} // namespace flint::views
