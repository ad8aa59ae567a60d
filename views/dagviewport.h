// SPDX-License-Identifier: MIT
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QTransform>

namespace flint::views {

/// Maps DAG scene coordinates (points) to widget pixels: screen = scene * scale + offset. A plain value
/// so that zoom and fit are unit-testable without a widget.
struct DagViewport {
    static constexpr double minScale = 0.01;
    static constexpr double maxScale = 8.0;

    double scale = 1.0;
    QPointF offset;

    QPointF toScreen(QPointF scene) const { return scene * scale + offset; }
    QPointF toScene(QPointF screen) const { return (screen - offset) / scale; }
    QRectF toScene(const QRectF& screen) const { return {toScene(screen.topLeft()), toScene(screen.bottomRight())}; }
    QTransform transform() const { return QTransform(scale, 0, 0, scale, offset.x(), offset.y()); }

    /// Multiplies the scale by `factor` (clamped) keeping the scene point under `screenPos` in place.
    void zoomAround(QPointF screenPos, double factor);
    /// Shows all of `scene` centred in a widget of `widget` size with `margin` pixels around, never
    /// enlarging beyond 1.5 (text stays readable, small graphs do not blow up).
    void fit(const QRectF& scene, const QSizeF& widget, double margin = 24.0);
    /// The same inside `area` of the widget (the part no overlay covers).
    void fitInto(const QRectF& scene, const QRectF& area, double margin = 24.0);
    /// Pans so that `scene` lands at the centre of a widget of `widget` size.
    void centerOn(QPointF scene, const QSizeF& widget);
};

} // namespace flint::views
