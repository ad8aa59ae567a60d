// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QValueAxis;

namespace flint::views {

/// A value axis from 0 to `maxValue` with round ticks (a 1-2-5 step, at most `intervals` + 1
/// ticks) and labels with as many decimals as the step needs, in the chart's locale where the chart
/// localises its numbers (QChart::setLocalizeNumbers). Shared by the Charts tab and the Sweep plot.
QValueAxis* roundAxis(double maxValue, const QString& title, int intervals = 5);
/// The same from `minValue` to `maxValue`, both ends rounded out to the step (the Sweep plot's
/// parameter axis: 1 to 8, or 0.5 to 2).
QValueAxis* roundAxis(double minValue, double maxValue, const QString& title, int intervals);

} // namespace flint::views
