// SPDX-License-Identifier: MIT
#include "views/roundaxis.h"

#include "views/timelinegeometry.h"

#include <algorithm>
#include <cmath>

#include <QValueAxis>

namespace flint::views {

QValueAxis* roundAxis(double maxValue, const QString& title, int intervals)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    double top = maxValue > 0 ? maxValue : 1;
    const double step = niceStep(top / intervals);
    top = std::ceil(top / step - 1e-9) * step;
    axis->setRange(0, top);
    axis->setTickCount(static_cast<int>(std::lround(top / step)) + 1);
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    return axis;
}

} // namespace flint::views
