// SPDX-License-Identifier: MIT
#include "views/partitionlabel.h"

#include <algorithm>

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace flint::views {

QString partitionLabel(const core::RankPartition& partition)
{
    std::size_t smallest = partition.parts.empty() ? 0 : partition.parts.front().size(), largest = smallest;
    for (const auto& part : partition.parts) {
        smallest = std::min(smallest, part.size());
        largest = std::max(largest, part.size());
    }
    const QString size = smallest == largest
                             ? QLocale().toString(static_cast<qlonglong>(largest))
                             : QStringLiteral("%1-%2").arg(QLocale().toString(static_cast<qlonglong>(smallest)),
                                                           QLocale().toString(static_cast<qlonglong>(largest)));
    const auto count = static_cast<int>(partition.parts.size());
    if (partition.basis == core::RankPartition::Basis::Program && partition.stages)
        return QCoreApplication::translate("flint::views::partitionLabel", "pipeline stages: %n of %1 ranks each",
                                           nullptr, count)
            .arg(size);
    if (partition.basis == core::RankPartition::Basis::Program)
        return QCoreApplication::translate("flint::views::partitionLabel", "programs: %n of %1 ranks each", nullptr,
                                           count)
            .arg(size);
    QStringList kinds;
    for (const auto& kind : partition.kinds) // Chakra's ALL_GATHER as the views write it: all-gather
        kinds << QString::fromStdString(kind).toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
    if (!partition.axes.empty() && kinds.isEmpty()) // a mesh axis no collective spans (pipeline sends)
        return QCoreApplication::translate("flint::views::partitionLabel", "%2: %n group(s) of %1 ranks", nullptr,
                                           count)
            .arg(size, QString::fromStdString(partition.axes));
    if (!partition.axes.empty())
        return QCoreApplication::translate("flint::views::partitionLabel", "%3: %n group(s) of %1 ranks (%2)", nullptr,
                                           count)
            .arg(size, kinds.join(QStringLiteral(", ")), QString::fromStdString(partition.axes));
    // Groups that are no mesh axis of the workload (or a workload that names none): its
    // communicators, by the collectives that run on them.
    return QCoreApplication::translate("flint::views::partitionLabel", "communicators: %n group(s) of %1 ranks (%2)",
                                       nullptr, count)
        .arg(size, kinds.join(QStringLiteral(", ")));
}

} // namespace flint::views
