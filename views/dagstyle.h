// SPDX-License-Identifier: MIT
#pragma once

#include "views/daglayout.h"

#include <vector>

#include <QColor>
#include <QString>

namespace flint::views {

/// The look of DAG nodes by kind (colours shared with the other views through viewpalette.h) and the
/// legend that explains it.
class DagStyle {
public:
    enum class Shape { Box, RoundedBox, Pill, Hexagon, Group, Stack };

    struct Look {
        QColor fill;
        QColor border;
        Shape shape = Shape::Box;
    };
    struct LegendEntry {
        QString text;
        Look look;
    };

    static Look lookOf(const DagNode& node);
    /// One entry per node look present in `layout` (in a fixed order), groups and runs included.
    static std::vector<LegendEntry> legendFor(const DagLayout& layout);
};

} // namespace flint::views
