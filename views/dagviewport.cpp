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
    if (scene.isEmpty() || widget.isEmpty())
        return;
    const double sx = (widget.width() - 2 * margin) / scene.width();
    const double sy = (widget.height() - 2 * margin) / scene.height();
    scale = std::clamp(std::min(sx, sy), minScale, 1.5);
    centerOn(scene.center(), widget);
}

void DagViewport::centerOn(QPointF scene, const QSizeF& widget)
{
    offset = QPointF(widget.width() / 2, widget.height() / 2) - scene * scale;
}

} // namespace flint::views
