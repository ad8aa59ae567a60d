// SPDX-License-Identifier: MIT
#include "views/roundaxis.h"

#include "views/timelinegeometry.h"

#include <algorithm>
#include <cmath>

#include <QValueAxis>

namespace flint::views {

QValueAxis* roundAxis(double maxValue, const QString& title, int intervals)
{
    return roundAxis(0.0, maxValue > 0 ? maxValue : 1, title, intervals);
}

QValueAxis* roundAxis(double minValue, double maxValue, const QString& title, int intervals)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    if (!(maxValue > minValue))
        maxValue = minValue + 1;
    const double step = niceStep((maxValue - minValue) / intervals);
    const double bottom = std::floor(minValue / step + 1e-9) * step;
    const double top = std::ceil(maxValue / step - 1e-9) * step;
    axis->setRange(bottom, top);
    axis->setTickCount(static_cast<int>(std::lround((top - bottom) / step)) + 1);
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    return axis;
}

} // namespace flint::views
