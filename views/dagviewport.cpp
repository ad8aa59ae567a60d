// SPDX-License-Identifier: MIT
#include "views/dagviewport.h"

#include <algorithm>

namespace flint::views {

void DagViewport::zoomAround(QPointF screenPos, double factor)
{
    const QPointF anchor = toScene(screenPos);
    scale = std::clamp(scale * factor, minScale, maxScale);
    offset = screenPos - anchor * scale;
}

void DagViewport::fit(const QRectF& scene, const QSizeF& widget, double margin)
{
    fitInto(scene, QRectF(QPointF(0, 0), widget), margin);
}

void DagViewport::fitInto(const QRectF& scene, const QRectF& area, double margin)
{
    if (scene.isEmpty() || area.isEmpty())
        return;
    const double sx = (area.width() - 2 * margin) / scene.width();
    const double sy = (area.height() - 2 * margin) / scene.height();
    scale = std::clamp(std::min(sx, sy), minScale, 1.5);
    offset = area.center() - scene.center() * scale;
}

void DagViewport::centerOn(QPointF scene, const QSizeF& widget)
{
    offset = QPointF(widget.width() / 2, widget.height() / 2) - scene * scale;
}

} // namespace flint::views
