// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QValueAxis;

namespace flint::views {

/// A value axis from 0 to `maxValue` with round ticks (a 1-2-5 step, at most `intervals` + 1
/// ticks) and labels with as many decimals as the step needs, in the chart's locale where the chart
/// localises its numbers (QChart::setLocalizeNumbers). Shared by the Charts tab and the Sweep plot.
QValueAxis* roundAxis(double maxValue, const QString& title, int intervals = 5);

} // namespace flint::views
